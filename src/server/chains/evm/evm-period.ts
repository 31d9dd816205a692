import type { Address } from 'viem'
import type { ChainError, ChainResult, PeriodTransfer, ReceivedInPeriod } from '../chain'
import {
  blockHeaders,
  type Counter,
  checkChain,
  type EvmContext,
  finalTop,
  RECIPIENTS_PER_REQUEST,
  toTransfer,
  transferLogs,
} from './evm-context'
import { firstBlockAtOrAfter } from './evm-received'
import type { EvmHeader } from './evm-rpc'

// Reconciliation's chain side on an EVM chain: the accepted tokens' Transfer logs (their contracts
// only, so a counterfeit never counts) with the addresses in the recipient topic, over the final
// blocks whose time falls in the period. The period's first and last blocks are found from block
// times (a gallop from the chain's block time, then halving); the logs are asked in ranges as wide as
// the provider answers (its _MAX_BLOCKS), 500 recipients a request. A period that would take more
// than MAX_PERIOD_REQUESTS log requests is refused with "narrow the period": first by an estimate
// from the chain's block time, before any request, then exactly once its blocks are known.

/** Log requests one check may send (a free key's day is tens of thousands). */
export const MAX_PERIOD_REQUESTS = 200

type Read = { transfers: PeriodTransfer[] } | { tooWide: string }

export async function evmReceivedInPeriod(
  ctx: EvmContext,
  addresses: readonly string[],
  range: { fromMs: number; toMs: number },
): Promise<ReceivedInPeriod> {
  const unreadAll = (message: string, narrow: boolean): ReceivedInPeriod => ({
    transfers: [],
    unread: addresses.map((address) => ({ address, message, narrow })),
    unlisted: [],
  })
  if (addresses.length === 0 || range.toMs <= range.fromMs) return { transfers: [], unread: [], unlisted: [] }
  const chunks = Math.ceil(addresses.length / RECIPIENTS_PER_REQUEST)
  const widest = Math.max(1, ...ctx.config.providers.map((p) => p.maxBlocks))
  // No block is made after now: a period ending tomorrow is estimated up to now.
  const span = Math.max(0, Math.min(range.toMs, Date.now()) - range.fromMs)
  const estimate = Math.ceil(span / ctx.spec.blockTimeMs / widest) * chunks
  if (estimate > MAX_PERIOD_REQUESTS) return unreadAll(tooWide(ctx, estimate), true)

  const wanted = new Map(addresses.map((a) => [a.toLowerCase(), a]))
  const n: Counter = { requests: 0 }
  const res = await ctx.pool.route<Read, ChainError>(async (client, p): Promise<ChainResult<Read>> => {
    const wrong = await checkChain(ctx, client, n)
    if (wrong) return wrong
    const head = await client.blockNumber()
    if (head.status === 'error') return head
    const top = finalTop(ctx, head.number)
    ctx.pool.sawHead(p, Math.max(0, top))
    const none: ChainResult<Read> = { status: 'success', transfers: [] }
    if (top < 0) return none
    const first = await firstBlockAtOrAfter(ctx, client, top, range.fromMs, n)
    if (first.status === 'error') return first
    if (first.number === null) return none
    const after = await firstBlockAtOrAfter(ctx, client, top, range.toMs, n)
    if (after.status === 'error') return after
    const last = after.number === null ? top : after.number - 1
    if (last < first.number) return none
    const width = Math.max(1, client.maxBlocks)
    const requests = Math.ceil((last - first.number + 1) / width) * chunks
    // An answer, not a fault: the provider is not to blame for a wide period.
    if (requests > MAX_PERIOD_REQUESTS) return { status: 'success', tooWide: tooWide(ctx, requests) }
    const transfers: PeriodTransfer[] = []
    for (let from = first.number; from <= last; from += width) {
      const to = Math.min(last, from + width - 1)
      const logs = await transferLogs(ctx, client, from, to, addresses as Address[], n)
      if (logs.status === 'error') return logs
      const headers = await blockHeaders(
        client,
        logs.logs.filter((l) => l.blockTimestamp === null),
        [],
        n,
      )
      if (headers.status === 'error') return headers
      for (const log of logs.logs) {
        const time = log.blockTimestamp ?? (headers.headers.get(log.blockHash) as EvmHeader).timestamp
        const t = toTransfer(ctx, log, time)
        const to = t && wanted.get(t.to.toLowerCase())
        if (!t || !to || t.blockTimestamp < range.fromMs || t.blockTimestamp >= range.toMs) continue
        transfers.push({
          token: t.token,
          to,
          txId: t.txId,
          from: t.from,
          value: t.value,
          blockTimestamp: t.blockTimestamp,
        })
      }
    }
    return { status: 'success', transfers }
  })
  if (res.status === 'error') return unreadAll(res.message, false)
  if ('tooWide' in res) return unreadAll(res.tooWide, true)
  return { transfers: res.transfers, unread: [], unlisted: [] }
}

function tooWide(ctx: EvmContext, requests: number): string {
  return `the period takes about ${requests} log requests on ${ctx.spec.name}, more than ${MAX_PERIOD_REQUESTS} one check may send; narrow the period`
}
