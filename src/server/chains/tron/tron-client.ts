import { type AccountLists, createAccountLists } from './tron-accounts'
import { type BlockReads, createBlockReads } from './tron-blocks'
import { createTronHttp, requireAddress, type TronHttpOptions } from './tron-http'
import { createTransactionReads, type TransactionReads } from './tron-transactions'

// The chain explorer client (TronGrid, or the devchain in tests and demos), assembled from its
// parts: the request budget (tron-budget.ts) inside the HTTP layer (tron-http.ts), block reads for
// the chain follower (tron-blocks.ts), account lists for reconciliation (tron-accounts.ts) and
// per-transaction reads for the buyer's hash (tron-transactions.ts). Expected failures of the
// explorer are values, never throws; only a programming error (a malformed address, transaction
// id or block range passed in) rejects with a TypeError.

export type { ListOptions, TransferList, Trc20ListOptions, Trc20Transfer, TrxTransfer } from './tron-accounts'
export type { ChainBlock, ChainHead, ChainLog, ChainReadOptions, ChainTx, ChainTxInfo } from './tron-blocks'
export type { TronError, TronErrorKind, TronResult } from './tron-http'
export type { TransactionLocation } from './tron-transactions'

export interface TronClientOptions extends TronHttpOptions {
  usdtContract: string
  /** Pages followed per list call. Default 10. */
  maxPages?: number
}

export interface TronClient extends AccountLists, BlockReads, TransactionReads {
  readonly usdtContract: string
  /** Epoch ms until which requests are held back after a rate limit (0 when not paused). */
  pausedUntil(): number
}

export function createTronClient(options: TronClientOptions): TronClient {
  const usdtContract = requireAddress(options.usdtContract)
  const http = createTronHttp(options)
  return {
    usdtContract,
    ...createAccountLists(http, { usdtContract, maxPages: options.maxPages ?? 10 }),
    ...createBlockReads(http),
    ...createTransactionReads(http),
    pausedUntil: http.pausedUntil,
  }
}
