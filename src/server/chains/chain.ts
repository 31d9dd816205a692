import type { ChainFamilyId, ChainId, TokenSymbol } from '../../shared/chains'
import type { TransferSource } from '../db/schema'
import type { ProviderHealth, ProviderTest, RequestBudgetView } from './provider-failover'

// What a chain family implements (decision 037). The ledger, settling, sightings, expiry, the reuse
// guard, reconciliation and the buyer's transaction hash are the same for every chain and name the
// chain on every row; a family says how its chain's addresses, tokens, blocks and transactions are
// read. TRON is one family (payments/tron/), every EVM chain another. Each enabled chain is one
// ChainAdapter in the registry (chain-registry.ts), with its own follower and sighting watcher.

export type { ChainFamilyId, ChainId, TokenSymbol }

export type ChainErrorKind = 'rate_limited' | 'http' | 'timeout' | 'malformed' | 'network' | 'reorg'

/**
 * An expected failure of a chain read: a value, never a throw. 'reorg' is a final block whose
 * parent is not the checkpoint (the follower stops for that chain and the operator is alerted).
 */
export interface ChainError {
  status: 'error'
  kind: ChainErrorKind
  message: string
  /** rate_limited only: how long requests are held back from now. */
  retryAfterMs?: number
  httpStatus?: number
}

export type ChainResult<T> = ({ status: 'success' } & T) | ChainError

/** A token a chain accepts. Amounts are bigint base units of it; decimals come from here, never assumed. */
export interface ChainToken {
  symbol: TokenSymbol
  /** The contract in the chain's normal address form; null for the chain's native coin (TRX). */
  contract: string | null
  decimals: number
  /** 'stable': one dollar per whole token; 'native': counted at the rate locked with the order. */
  kind: 'stable' | 'native'
}

/** When a block is final, which is when its transfers may pay. */
export type ConfirmationRule =
  /**
   * The chain says so (TRON's solidified blocks, Solana's finalized slots); `expectedMs`: about how
   * long after a transfer's block that comes, when the buyer is told a figure (not TRON's own words).
   */
  | { kind: 'solidified'; expectedMs?: number }
  /** This many blocks on top of it (the block itself counts as one). */
  | { kind: 'depth'; blocks: number }

export interface BlockRef {
  number: number
  /** The block's hash (TRON: its block id), as the chain writes it. */
  hash: string
  /** Block time, ms. */
  timestamp: number
}

/** A transfer into a watched address, as read from the chain: what the ledger records. */
export interface ChainTransfer {
  chain: ChainId
  /** The transaction's hash in the family's normal form (normalizeTxHash). */
  txId: string
  /** 'log' (a token Transfer log), 'native' (a native coin transfer), 'internal' (native coin moved by a contract). */
  source: Exclude<TransferSource, 'legacy'>
  /** Log index in the transaction ('log'), the internal transfer's index ('internal'), 0 ('native'). */
  eventIndex: number
  token: TokenSymbol
  from: string
  to: string
  /** Base units of the token (its decimals from the chain's token table). */
  value: bigint
  blockNumber: number | null
  blockTimestamp: number
}

/** A final block as the follower commits it: its place in the chain and the transfers it holds to the watch set. */
export interface FinalBlock extends BlockRef {
  parentHash: string
  transfers: ChainTransfer[]
}

export interface FinalReadOptions {
  /** The last block recorded; its hash is null on a database that started at a configured height. */
  checkpoint: { number: number; hash: string | null }
  /** Every address of the family's pool (removed ones too), in the family's normal form. */
  watch: ReadonlySet<string>
  /** Blocks asked for at once. */
  maxBlocks: number
  /** Epoch ms: stop reading after it and answer what was read so far (with more: true). */
  deadline: number
  /** Renews the follower's lease during a long read. */
  keepAlive?: () => Promise<unknown>
}

/**
 * Final blocks after the checkpoint, in order. A family may leave out blocks that hold no transfer to
 * the watch set, but the last block read is always in the list so the checkpoint can move to it. The
 * first block must have the checkpoint as parent (else an error of kind 'reorg', or 'malformed' when
 * the family blames the provider). An error after some blocks still answers those blocks.
 */
export interface FinalRead {
  blocks: FinalBlock[]
  /** More final blocks are waiting. */
  more: boolean
  error?: ChainError
}

/** A transfer to an open order's address seen at the head: never pays (decision 024). */
export interface HeadSighting {
  txId: string
  /** As in the ledger, and 'call' for a token transfer call that failed on chain. */
  source: 'log' | 'native' | 'internal' | 'call'
  eventIndex: number
  token: TokenSymbol
  value: bigint
  from: string
  to: string
  blockNumber: number
  blockTimestamp: number
  /** The chain's result of a failed transfer (OUT_OF_ENERGY, REVERT, …); null when it succeeded. */
  failure: string | null
}

export interface HeadLook {
  /** Requests this look sent (for the budget's pacing). */
  requests: number
  found: HeadSighting[]
  /** Newest head block read; null when none was new. */
  head: number | null
  /** Block time (ms) of the newest block read so far, across looks: the next block is due a block time after it. */
  lastBlockTime: number
  error?: ChainError
}

/** Reads the head for sightings, remembering where the last look stopped. */
export interface HeadReader {
  look(watch: ReadonlySet<string>): Promise<HeadLook>
  /** Forget the cursor: the next look starts at the head (after idling or a pause). */
  reset(): void
}

/** One transaction as the chain has it: for the buyer's "I paid — hash" and for checking refunds. */
export interface TransactionView {
  /** 'unknown': no such transaction; 'pending': in a block that is not final yet; 'final'. */
  state: 'unknown' | 'pending' | 'final'
  blockNumber: number | null
  blockTimestamp: number | null
  /** Whether it ran without failing; null while unknown. */
  success: boolean | null
  /** The chain's word for a failure (REVERT, OUT_OF_ENERGY, …); null otherwise. */
  failure: string | null
  /** Final only: the accepted tokens' transfers this transaction made, to anyone (refunds read these). */
  transfers: ChainTransfer[]
  /**
   * Final only: every transfer to the watch set in the transaction's block, in block order (the
   * buyer's hash records these exactly as the follower would).
   */
  blockTransfers: ChainTransfer[]
}

/** A final transfer of one token to one address (refunds watch for these). */
export interface ReceivedTransfer {
  txId: string
  from: string
  /** Base units of the token. */
  value: bigint
  blockTimestamp: number
}

/** A final transfer of an accepted token to one of the addresses asked, in a period (reconciliation). */
export interface PeriodTransfer extends ReceivedTransfer {
  token: TokenSymbol
  /** The address it was sent to (normal form). */
  to: string
}

/**
 * What addresses received in a period, from the chain's side (reconciliation): the final transfers
 * of the accepted tokens, by their own contracts only (a counterfeit with the same symbol never
 * counts), with block time in [fromMs, toMs).
 */
export interface ReceivedInPeriod {
  transfers: PeriodTransfer[]
  /** Addresses that could not be read completely, with why; none of their transfers is listed. */
  unread: {
    address: string
    message: string
    /** The period needs more requests than one check may send: a shorter one can be read. */
    narrow: boolean
  }[]
  /**
   * Ledger sources this read cannot see (TRON's account lists hold no TRX moved by contract code,
   * 'internal'): the ledger's rows of these sources are left out of the comparison.
   */
  unlisted: readonly Exclude<TransferSource, 'legacy'>[]
}

export interface TransactionLookupOptions {
  watch: ReadonlySet<string>
  /** The buyer is waiting: the read gives up when it aborts. */
  signal?: AbortSignal
}

/** The provider pool of a chain as the operator's screens and alerts see it (provider-failover.ts). */
export interface ChainProvidersView {
  health(): ProviderHealth[]
  requestBudget(): RequestBudgetView
  /** Since when every read has failed on every provider (epoch ms); null while one answers. */
  failingSince(): number | null
  test(name: string): Promise<ProviderTest | null>
  refreshHeads(maxAgeMs: number): Promise<void>
  /** 0 when a read can go out now; else until when every key holds back after a rate limit. */
  pausedUntil(): number
}

/** What the follower needs of a chain. */
export interface FinalReads {
  readonly chain: ChainId
  /**
   * The follower's watch is only the addresses orders hold or that cool down after one, not the
   * whole pool: a family that reads each watched address (Solana) pays per address (decision 053).
   */
  readonly watchesActiveAddresses?: boolean
  /** The newest final block (TRON: the solidified head; EVM: head − depth + 1). */
  finalHead(): Promise<ChainResult<BlockRef>>
  readFinal(opts: FinalReadOptions): Promise<FinalRead>
}

/** One enabled chain: what its family implements, bound to the operator's settings for it. */
/** One transaction an account read found paying the address (decision 054). */
export interface AccountItem {
  txId: string
  blockTimestamp: number
}

export interface ChainAdapter extends FinalReads {
  readonly family: ChainFamilyId
  /** The accepted tokens (one table in code per chain, with where each contract comes from). */
  readonly tokens: readonly ChainToken[]
  readonly blockIntervalMs: number
  /**
   * How often the follower and the sighting watcher look once caught up, when not every block (a
   * chain with sub-second blocks); default blockIntervalMs.
   */
  readonly followEveryMs?: number
  /** The follower's requests a second once caught up (the sighting watcher's budget leaves room for them). */
  readonly followerRequestsPerSecond?: number
  readonly confirmation: ConfirmationRule
  /** The address in the family's normal form (the one stored), or null when it is not one. */
  normalizeAddress(text: string): string | null
  /** The transaction hash in the family's normal form, or null when it is not one. */
  normalizeTxHash(text: string): string | null
  /** The text of the payment QR code for an amount (TRON: the address; EVM: an EIP-681 URI). */
  paymentUri(p: { address: string; token: ChainToken; amountUnits: bigint }): string
  /** A public explorer's page of a transaction. */
  explorerTxUrl(txId: string): string
  createHeadReader(opts?: { now?: () => number }): HeadReader
  lookupTransaction(txId: string, opts: TransactionLookupOptions): Promise<ChainResult<TransactionView>>
  /**
   * The safety net (decision 045): ids of the transactions that moved an accepted token to `address`
   * between fromMs and toMs (block time), from the provider's account index. A family whose
   * follower reads every transfer needs none.
   */
  listReceived?(
    address: string,
    range: { fromMs: number; toMs: number },
  ): Promise<ChainResult<{ txIds: string[] }>>
  /**
   * The account reads (decision 054): the transactions that moved the accepted stablecoin, plain
   * TRX or TRX moved by contract code to `address` with block time in [fromMs, toMs], final or not
   * yet, each with its block time. A family whose follower reads every transfer needs none.
   */
  readAccount?(
    address: string,
    range: { fromMs: number; toMs?: number },
  ): Promise<ChainResult<{ items: AccountItem[] }>>
  /**
   * The final transfers of an accepted token to `address` (normal form) made at or after `sinceMs`,
   * oldest first; null when the chain cannot be read or the answer would be incomplete.
   */
  transfersTo(address: string, token: TokenSymbol, sinceMs: number): Promise<ReceivedTransfer[] | null>
  /**
   * The chain's own clock: its newest (head, not final) block's time, ms; null when no provider
   * answers. What "now" means on the chain, whatever this server's clock says (refunds, decision 060).
   */
  headTime(): Promise<number | null>
  /**
   * Reconciliation's chain side (decision 047): the final transfers of the accepted tokens to these
   * addresses (normal form) with block time in [fromMs, toMs), through the chain's provider pool.
   * TRON asks the explorer's account index (an index the follower never reads); EVM reads the
   * tokens' Transfer logs over the blocks of the period. A period that would take more requests
   * than one check may send answers every address unread with narrow: true, before asking.
   */
  receivedInPeriod(
    addresses: readonly string[],
    range: { fromMs: number; toMs: number },
  ): Promise<ReceivedInPeriod>
  readonly providers: ChainProvidersView
}

/** The accepted token of a chain by symbol; undefined when the chain does not take it. */
export function tokenOf(adapter: Pick<ChainAdapter, 'tokens'>, symbol: TokenSymbol): ChainToken | undefined {
  return adapter.tokens.find((t) => t.symbol === symbol)
}

/**
 * A stablecoin amount in micro-dollars (6 decimals), exact for tokens of 6 decimals or fewer and
 * rounded down past the micro-dollar for more (an 18-decimal USDT's last 12 digits).
 */
export function stableUnitsToMicros(units: bigint, decimals: number): bigint {
  if (decimals === 6) return units
  if (decimals > 6) return units / 10n ** BigInt(decimals - 6)
  return units * 10n ** BigInt(6 - decimals)
}
