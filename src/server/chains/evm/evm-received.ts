import type { Address } from 'viem'
import type { ChainError, ChainResult, ReceivedTransfer, TokenSymbol } from '../chain'
import {
  blockHeaders,
  type Counter,
  checkChain,
  type EvmContext,
  type EvmKeyClient,
  finalTop,
  malformed,
  toTransfer,
  transferLogs,
} from './evm-context'
import type { EvmHeader } from './evm-rpc'

// What one address received on an EVM chain since a time, final only (refunds): the first block at
// or after the time (found from the chain's block time, then narrowed by headers), then the token's
// Transfer logs with the address in the recipient topic, up to the final head, in ranges the
// provider accepts. A search wider than MAX_RANGES ranges answers null: the operator proves such a
// refund by its hash instead.

export const MAX_RANGES = 50

export async function evmTransfersTo(
  ctx: EvmContext,
  address: string,
  token: TokenSymbol,
  sinceMs: number,
): Promise<ReceivedTransfer[] | null> {
  if (!ctx.tokens.some((t) => t.symbol === token)) return []
  const n: Counter = { requests: 0 }
  const res = await ctx.pool.route<{ transfers: ReceivedTransfer[] }, ChainError>(
    async (client, p): Promise<ChainResult<{ transfers: ReceivedTransfer[] }>> => {
      const wrong = await checkChain(ctx, client, n)
      if (wrong) return wrong
      const head = await client.blockNumber()
      if (head.status === 'error') return head
      const top = finalTop(ctx, head.number)
      ctx.pool.sawHead(p, Math.max(0, top))
      if (top < 0) return { status: 'success', transfers: [] }
      const start = await firstBlockAtOrAfter(ctx, client, top, sinceMs, n)
      if (start.status === 'error') return start
      if (start.number === null) return { status: 'success', transfers: [] }
      const width = Math.max(1, client.maxBlocks)
      if (Math.ceil((top - start.number + 1) / width) > MAX_RANGES) {
        return malformed(`more than ${MAX_RANGES} ranges of ${width} blocks to search`)
      }
      const transfers: ReceivedTransfer[] = []
      for (let from = start.number; from <= top; from += width) {
        const to = Math.min(top, from + width - 1)
        const logs = await transferLogs(ctx, client, from, to, [address as Address], n)
        if (logs.status === 'error') return logs
        const needTimes = logs.logs.filter((l) => l.blockTimestamp === null)
        const headers = await blockHeaders(client, needTimes, [], n)
        if (headers.status === 'error') return headers
        for (const log of logs.logs) {
          const time = log.blockTimestamp ?? (headers.headers.get(log.blockHash) as EvmHeader).timestamp
          const t = toTransfer(ctx, log, time)
          if (!t || t.token !== token || t.to.toLowerCase() !== address.toLowerCase()) continue
          if (t.blockTimestamp < sinceMs) continue
          transfers.push({ txId: t.txId, from: t.from, value: t.value, blockTimestamp: t.blockTimestamp })
        }
      }
      return { status: 'success', transfers }
    },
  )
  return res.status === 'error' ? null : res.transfers
}

/** The first block in [0, top] whose time is at or after `sinceMs`; null when none is yet. */
export async function firstBlockAtOrAfter(
  ctx: EvmContext,
  client: EvmKeyClient,
  top: number,
  sinceMs: number,
  n: Counter,
): Promise<ChainResult<{ number: number | null }>> {
  const time = async (number: number): Promise<ChainResult<{ t: number }>> => {
    n.requests += 1
    const h = await client.header(number)
    if (h.status === 'error') return h
    if (!h.header) return malformed(`the provider has no block ${number} below its final head ${top}`)
    return { status: 'success', t: h.header.timestamp }
  }
  const topTime = await time(top)
  if (topTime.status === 'error') return topTime
  if (topTime.t < sinceMs) return { status: 'success', number: null }
  // hi: a block at or after the time; lo: one before it (or -1). Gallop back from the estimate.
  let hi = top
  let step = Math.max(1, Math.ceil((topTime.t - sinceMs) / ctx.spec.blockTimeMs))
  let lo = -1
  while (hi > 0) {
    const probe = Math.max(0, hi - step)
    const t = await time(probe)
    if (t.status === 'error') return t
    if (t.t < sinceMs) {
      lo = probe
      break
    }
    hi = probe
    step *= 2
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2)
    const t = await time(mid)
    if (t.status === 'error') return t
    if (t.t < sinceMs) lo = mid
    else hi = mid
  }
  return { status: 'success', number: hi }
}
