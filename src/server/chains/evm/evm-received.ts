import type { ChainError, ChainResult, ReceivedTransfer, TokenSymbol } from '../chain'
import { type Counter, checkChain, type EvmContext, type EvmKeyClient, malformed } from './evm-context'
import { evmReceivedInPeriod } from './evm-period'

// What one address received on an EVM chain since a time, final only (refunds' watch): the
// reconciliation read of a period (evm-period.ts) from that time on, for that address and token. One
// way to read an address: a search wider than one check may send answers null before it asks (the
// operator proves such a refund by its hash), and never marks the provider faulty.

export async function evmTransfersTo(
  ctx: EvmContext,
  address: string,
  token: TokenSymbol,
  sinceMs: number,
): Promise<ReceivedTransfer[] | null> {
  if (!ctx.tokens.some((t) => t.symbol === token)) return []
  const read = await evmReceivedInPeriod(ctx, [address], { fromMs: sinceMs, toMs: Number.MAX_SAFE_INTEGER })
  if (read.unread.length > 0) return null
  return read.transfers
    .filter((t) => t.token === token)
    .map((t) => ({ txId: t.txId, from: t.from, value: t.value, blockTimestamp: t.blockTimestamp }))
}

/** The chain's own clock: the newest block's time, ms; null when no provider answers. */
export async function evmHeadTime(ctx: EvmContext): Promise<number | null> {
  const n: Counter = { requests: 0 }
  const res = await ctx.pool.route<{ t: number }, ChainError>(
    async (client): Promise<ChainResult<{ t: number }>> => {
      const wrong = await checkChain(ctx, client, n)
      if (wrong) return wrong
      const head = await client.blockNumber()
      if (head.status === 'error') return head
      const h = await client.header(head.number)
      if (h.status === 'error') return h
      if (!h.header) return malformed(`the provider has no block ${head.number}, its own head`)
      return { status: 'success', t: h.header.timestamp }
    },
  )
  return res.status === 'error' ? null : res.t
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
