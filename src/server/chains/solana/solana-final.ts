import type { BlockRef, ChainResult, ChainTransfer, FinalBlock, FinalRead, FinalReadOptions } from '../chain'
import {
  blockTimeMs,
  type Counter,
  getTransaction,
  malformed,
  raiseFinal,
  readFinalizedSlot,
  type SolanaContext,
  tokenAccountsOf,
} from './solana-context'
import { IDLE_HEAD_EVERY_MS, type Scanner } from './solana-scan'
import { readTransfers } from './solana-transfers'

// The follower's reads on Solana: a slot is final at the `finalized` commitment. The follower's
// watch is the addresses of open and cooling orders (the family asks for no more: readsWatchOfActive);
// their token accounts' listings (solana-scan.ts) name every transaction into them with its slot
// and whether it is finalized (the statuses of the pending ones asked at the start of each pass). A
// pass moves the checkpoint to the newest slot known final — the newest finalized signature listed,
// or the finalized slot asked for now and then (for the chain's clock, which decides expiry) — but
// never past the slot every account's balance has been read at (a listing is whole up to there),
// with every listed transaction at or below it read and recorded.
// A finalized slot never changes: a slot's "hash" here is its number (no reorganisation to detect).

export function slotRef(slot: number, time: number): BlockRef {
  return { number: slot, hash: String(slot), timestamp: time }
}

export async function solanaFinalHead(ctx: SolanaContext): Promise<ChainResult<BlockRef>> {
  const n: Counter = { requests: 0 }
  const res = await readFinalizedSlot(ctx, n)
  if (res.status === 'error') return res
  raiseFinal(ctx, res.slot, res.time)
  return { status: 'success', ...slotRef(res.slot, res.time) }
}

export async function solanaReadFinal(
  ctx: SolanaContext,
  scanner: Scanner,
  opts: FinalReadOptions,
): Promise<FinalRead> {
  const cp = opts.checkpoint.number
  const n: Counter = { requests: 0 }
  const accounts = await tokenAccountsOf(ctx, opts.watch)
  // The finalized slot first, so every listing after it reaches at least that slot.
  let head: { slot: number; time: number } | null = null
  const headEvery =
    accounts.size > 0 ? ctx.config.finalEveryMs : Math.max(ctx.config.finalEveryMs, IDLE_HEAD_EVERY_MS)
  if (!ctx.final || Date.now() - ctx.final.at >= headEvery) {
    const res = await readFinalizedSlot(ctx, n)
    if (res.status === 'error') return { blocks: [], more: false, error: res }
    head = res
    raiseFinal(ctx, res.slot, res.time)
  }
  const keys = [...accounts.keys()]
  // The pending signatures' statuses first: a payment they make final is read at once, without
  // waiting for the balance reads of this pass (the next pass, at once, makes them).
  const quick = await scanner.ensure(keys, cp, { deadline: opts.deadline, statuses: 'only' })
  if (quick.error) return { blocks: [], more: false, error: quick.error }
  const early = quick.finalized > 0
  if (!early) {
    const scan = await scanner.ensure(keys, cp, { deadline: opts.deadline, statuses: 'skip' })
    if (scan.error) return { blocks: [], more: false, error: scan.error }
    if (!scan.complete) return { blocks: [], more: true }
  }
  // Never past the slot up to which every account's listing is known to be whole: a payment made
  // and finalized since an account's last balance read is not in its listing yet.
  const whole = keys.length === 0 ? Number.POSITIVE_INFINITY : scanner.currentSlot(keys)
  if (whole === null) return { blocks: [], more: true }
  const listed = keys.flatMap((a) => scanner.listing(a)?.items ?? [])
  let top = head && head.slot > cp && head.slot <= whole ? head : null
  for (const item of listed) {
    if (item.confirmationStatus !== 'finalized' || item.slot <= cp || item.slot > whole) continue
    if (item.blockTime === null) continue
    if (!top || item.slot > top.slot) top = { slot: item.slot, time: blockTimeMs(item.blockTime) }
  }
  if (!top) return { blocks: [], more: early }
  raiseFinal(ctx, top.slot, top.time)
  const bySlot = new Map<number, ChainTransfer[]>()
  const seen = new Set<string>()
  for (const item of listed.sort((a, b) => a.slot - b.slot)) {
    if (item.slot <= cp || item.slot > top.slot || item.err !== null || seen.has(item.signature)) continue
    seen.add(item.signature)
    const got = await getTransaction(ctx, item.signature, 'finalized', n)
    if (got.status === 'error') return { blocks: [], more: false, error: got }
    if (!got.tx) {
      // Listed, yet not final on the provider: the account is listed again (a fork may have taken it back).
      scanner.doubt(item.signature)
      return {
        blocks: [],
        more: false,
        error: malformed(`finalized ${item.signature} is unknown to the provider`),
      }
    }
    if (got.tx.slot !== item.slot)
      return { blocks: [], more: false, error: malformed(`${item.signature} moved slots`) }
    const { transfers } = readTransfers(got.tx, ctx.tokens, 'solana')
    const ours = transfers.filter((t) => opts.watch.has(t.to))
    if (ours.length > 0) bySlot.set(item.slot, [...(bySlot.get(item.slot) ?? []), ...ours])
  }
  const blocks: FinalBlock[] = []
  let parent = opts.checkpoint.hash ?? String(cp)
  for (const slot of [...bySlot.keys()].sort((a, b) => a - b)) {
    const transfers = bySlot.get(slot) as ChainTransfer[]
    const ref = slotRef(slot, transfers[0]?.blockTimestamp ?? top.time)
    blocks.push({ ...ref, parentHash: parent, transfers })
    parent = ref.hash
  }
  if (blocks[blocks.length - 1]?.number !== top.slot) {
    blocks.push({ ...slotRef(top.slot, top.time), parentHash: parent, transfers: [] })
  }
  return { blocks, more: early }
}
