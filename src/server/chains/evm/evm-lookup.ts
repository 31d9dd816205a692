import type { Address, Hash } from 'viem'
import type {
  ChainError,
  ChainResult,
  ChainTransfer,
  TransactionLookupOptions,
  TransactionView,
} from '../chain'
import {
  type Counter,
  checkChain,
  type EvmContext,
  finalTop,
  malformed,
  toTransfer,
  transferLogs,
} from './evm-context'

// One transaction for the buyer's "I paid — transaction hash" (and refunds): its receipt says
// whether it ran (a reverted transfer is mined, costs gas and moves nothing: 'REVERT', explained to
// the buyer like a failed TRON transfer); once its block is final, every transfer to our addresses
// in that block is answered, so the buyer's hash records exactly what the follower will.

const UNKNOWN: Omit<TransactionView, 'state'> = {
  blockNumber: null,
  blockTimestamp: null,
  success: null,
  failure: null,
  transfers: [],
  blockTransfers: [],
}

export async function evmLookupTransaction(
  ctx: EvmContext,
  txId: string,
  opts: TransactionLookupOptions,
): Promise<ChainResult<TransactionView>> {
  const hash = txId as Hash
  const recipients = [...opts.watch] as Address[]
  const n: Counter = { requests: 0 }
  return ctx.pool.route<TransactionView, ChainError>(
    async (client, p): Promise<ChainResult<TransactionView>> => {
      const wrong = await checkChain(ctx, client, n)
      if (wrong) return wrong
      const r = await client.receipt(hash, ctx.contracts)
      if (r.status === 'error') return r
      if (!r.receipt) {
        const known = await client.hasTransaction(hash)
        if (known.status === 'error') return known
        return { status: 'success', state: known.known ? 'pending' : 'unknown', ...UNKNOWN }
      }
      const receipt = r.receipt
      const ok = receipt.status === 'success'
      const head = await client.blockNumber()
      if (head.status === 'error') return head
      ctx.pool.sawHead(p, finalTop(ctx, head.number))
      const header = await client.headerByHash(receipt.blockHash)
      if (header.status === 'error') return header
      if (!header.header)
        return malformed(`the provider has no block ${receipt.blockHash} of its own receipt`)
      const time = header.header.timestamp
      const common = {
        blockNumber: receipt.blockNumber,
        blockTimestamp: time,
        success: ok,
        failure: ok ? null : 'REVERT',
      }
      if (receipt.blockNumber > finalTop(ctx, head.number)) {
        return { status: 'success', state: 'pending', ...common, transfers: [], blockTransfers: [] }
      }
      const transfers = receipt.transfers
        .map((log) => toTransfer(ctx, log, time))
        .filter((t): t is ChainTransfer => t !== null)
      let blockTransfers: ChainTransfer[] = []
      if (recipients.length > 0) {
        const logs = await transferLogs(ctx, client, receipt.blockNumber, receipt.blockNumber, recipients, n)
        if (logs.status === 'error') return logs
        if (logs.logs.some((l) => l.blockHash !== receipt.blockHash)) {
          return malformed(`block ${receipt.blockNumber} changed while it was read`)
        }
        blockTransfers = logs.logs
          .map((log) => toTransfer(ctx, log, time))
          .filter((t): t is ChainTransfer => t !== null)
      }
      return { status: 'success', state: 'final', ...common, transfers, blockTransfers }
    },
    undefined,
    { signal: opts.signal },
  )
}
