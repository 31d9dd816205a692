// The devchain's public shapes: its options, the control API's requests and answers, its handle.

export type FaultMode =
  | 'none'
  | 'http429'
  | 'http403'
  | 'http503'
  | 'http500'
  | 'timeout'
  | 'malformed'
  | 'empty'

export interface DevchainOptions {
  /** 0 picks a free port. Default 0. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Base58 contract reported as the genuine USDT. Default mainnet TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t. */
  usdtContract?: string
  /** Block spacing, and the timer period when autoMine is on. Default 3000. */
  blockIntervalMs?: number
  /** Blocks between the head and the solidified head. Default 19. */
  solidifyLag?: number
  /** Produce a block every blockIntervalMs. Default true; when false only mine() produces blocks. */
  autoMine?: boolean
  /** Unrelated USDT transfers in every produced block, like mainnet traffic. Default 0. */
  noisePerBlock?: number
  /** Initial TRX/USD price as a decimal string. Default "0.25". */
  priceUsd?: string
  /**
   * The chain's clock for the blocks it produces (a test moves it forward to make a payment late).
   * Default Date.now; with autoMine the timer still runs on the wall clock.
   */
  now?: () => number
}

export interface LogRequest {
  to: string
  amount: string | number
  from?: string
  contract?: string
  type?: 'Transfer' | 'Approval'
}

export interface TransferRequest {
  /** Required unless `logs` is given. */
  to?: string
  amount?: string | number
  token?: 'USDT' | 'TRX'
  /** Sender (TRX), token holder (USDT), or caller of via_contract. Default DEFAULT_SENDER. */
  from?: string
  /** transferFrom: the signer moving the holder's tokens. */
  spender?: string
  method?: 'transfer' | 'transferFrom'
  /** The transaction calls this contract, which makes USDT emit the log (or pays TRX internally). */
  via_contract?: string
  /** Several logs in one contract call (a batch payout). */
  logs?: LogRequest[]
  /** A token contract other than the configured USDT (a counterfeit). */
  contract?: string
  type?: 'Transfer' | 'Approval'
  txid?: string
  /**
   * The call fails on chain, with no logs and result FAILED: true or 'REVERT' reverts;
   * 'OUT_OF_ENERGY' runs out of the energy its fee limit paid for (the TRX is burnt all the same).
   */
  failed?: boolean | 'REVERT' | 'OUT_OF_ENERGY'
  /** TRX via_contract only: the internal transfer is marked rejected. */
  rejected?: boolean
  /**
   * via_contract only: the call's data does not name the recipient (a contract paying out from its
   * own books, e.g. a withdraw() of a balance it keeps): only the receipt shows whom it paid.
   */
  unnamed?: boolean
  /**
   * USDT via_contract with unnamed only: a swap-like payout. The same call also moves TRX by contract
   * code (internal transfers) to each of these, as a swap router's inner legs do; its data names
   * none of the recipients (amounts and a deadline only).
   */
  swap_trx?: { to: string; amount: string | number }[]
}

export interface TransferResult {
  transaction_id: string
  /** The block the transfer lands in: the next one produced. */
  block_number: number
  block_timestamp: number
}

export interface ChainHeights {
  head: number
  solid: number
}

export interface DevchainStats {
  /** Explorer requests (everything outside /_sim/), faulted ones included. */
  requests: number
  /** Per route, with the address in the path replaced by ":address". */
  byPath: Record<string, number>
  /** Response body bytes per route. */
  bytesByPath: Record<string, number>
  /** Requests per TRON-PRO-API-KEY value; "(none)" when the header was absent. */
  apiKeys: Record<string, number>
  /** Requests answered by an injected fault. */
  faulted: number
  /** Most explorer requests seen within any 1000 ms window. */
  peakPerSecond: number
}

export interface Devchain {
  url: string
  port: number
  usdtContract: string
  /** Closes the HTTP listener and stops the chain for good. */
  close(): Promise<void>
  /** Closes the HTTP listener only (an explorer outage); the chain keeps producing blocks. */
  stop(): Promise<void>
  /** Reopens the HTTP listener on the same port. */
  start(): Promise<void>
  /** Same as POST /_sim/transfers; throws DevchainInputError on a bad request. */
  transfer(request: TransferRequest): TransferResult
  /** Same as POST /_sim/mine: produces n blocks now (any mode). */
  mine(blocks?: number): ChainHeights
  /** Mines until every transfer submitted so far is in a solidified block. */
  solidify(): ChainHeights
  /** Same as POST /_sim/drop: the transaction vanishes from the unsolidified chain (a fork without it). */
  drop(txid: string): { block_number: number; reorganised_blocks: number }
  heights(): ChainHeights
  /**
   * path: fault only requests whose path contains this text. suspendSeconds: the suspension a 429
   * or 403 names (default 1; TronGrid names up to 30).
   */
  setFault(mode: FaultMode, count?: number, path?: string, suspendSeconds?: number): void
  setPrice(usd: string): void
  reset(): void
  stats(): DevchainStats
  resetStats(): void
  /**
   * Another listener on the same chain (a second provider in tests), with its own faults, stats,
   * stop/start and, if asked, a fork.
   */
  addFace(): Promise<DevchainFace>
}

/** One more HTTP face of the same chain. */
export interface DevchainFace {
  url: string
  port: number
  setFault(mode: FaultMode, count?: number, path?: string, suspendSeconds?: number): void
  stats(): DevchainStats
  resetStats(): void
  stop(): Promise<void>
  start(): Promise<void>
  /** From this block on, the face serves a fork: other blockIDs, each linked to the previous. null ends it. */
  fork(fromBlock: number | null): void
}
