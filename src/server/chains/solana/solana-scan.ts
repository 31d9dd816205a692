import type { ChainError } from '../chain'
import { type Counter, listSignatures, type SolanaContext } from './solana-context'
import type { SignatureInfo } from './solana-types'

// Solana makes 2.5 slots a second: reading every block does not fit a provider key's day. The
// family reads instead the signatures of the watched addresses' token accounts (one request each,
// at the `confirmed` commitment, whose answer also says which signatures are finalized), and the
// follower and the sighting watcher share those listings: one listing serves "confirming" and
// "paid". The listings are paced to the providers' day: with PER_DAY set, the look at each account
// comes every (accounts ÷ requests a second the day allows), never sooner than SOLANA_POLL_MS.

/** Share of the day's budget the listings may take (the rest: finalized-slot looks, transactions, the buyer's signature). */
const LISTING_SHARE = 0.85
/** The finalized slot is asked for at least this far apart with nothing watched (an idle shop's whole cost). */
export const IDLE_HEAD_EVERY_MS = 180_000
const CONCURRENCY = 4

export interface Listing {
  /** When the listing was asked for (ms). */
  at: number
  items: SignatureInfo[]
}

export interface Scanner {
  /** Lists the accounts whose last listing is older than the pace; answers whether all are fresh now. */
  ensure(
    accounts: readonly string[],
    floorSlot: number,
    opts: { lane?: 'sightings'; deadline?: number },
  ): Promise<{ requests: number; complete: boolean; error?: ChainError }>
  listing(account: string): Listing | undefined
  /** How long a listing stays fresh with this many accounts watched. */
  paceMs(accounts: number): number
}

export function createScanner(ctx: SolanaContext): Scanner {
  const listings = new Map<string, Listing>()
  /** The most accounts watched lately: the watcher's smaller set must not speed up the looks. */
  let watched = { n: 0, at: 0 }

  function paceMs(accounts: number): number {
    const now = Date.now()
    if (accounts >= watched.n || now - watched.at > 60_000) watched = { n: accounts, at: now }
    const perDay = ctx.pool.requestBudget().perDay
    if (!perDay) return ctx.config.pollMs
    const perSecond = (perDay * LISTING_SHARE) / 86_400 - 2 / (ctx.config.finalEveryMs / 1000)
    if (perSecond <= 0) return 3_600_000
    return Math.max(ctx.config.pollMs, Math.ceil((watched.n / perSecond) * 1000))
  }

  async function ensure(
    accounts: readonly string[],
    floorSlot: number,
    opts: { lane?: 'sightings'; deadline?: number },
  ) {
    const n: Counter = { requests: 0 }
    const fresh = Date.now() - paceMs(accounts.length)
    // A little early counts as fresh: a look paced to the slot would otherwise miss by milliseconds.
    const due = accounts.filter((a) => (listings.get(a)?.at ?? 0) <= fresh + 50)
    let error: ChainError | undefined
    let next = 0
    const worker = async () => {
      while (next < due.length && !error) {
        if (opts.deadline && Date.now() > opts.deadline) return
        const account = due[next++] as string
        const at = Date.now()
        const prior = listings.get(account)
        // Back to the floor, and no further than the newest signature already read below it.
        const res = await listSignatures(ctx, account, { floorSlot, commitment: 'confirmed' }, n, {
          lane: opts.lane,
        })
        if (res.status === 'error') {
          error = res
          return
        }
        const kept =
          prior?.items.filter(
            (i) => i.slot > floorSlot && !res.items.some((r) => r.signature === i.signature),
          ) ?? []
        listings.set(account, { at, items: [...res.items, ...kept] })
      }
    }
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, worker))
    const complete = !error && accounts.every((a) => (listings.get(a)?.at ?? 0) > fresh)
    // Forget accounts no longer watched by anyone for a while.
    if (listings.size > 4 * Math.max(1, watched.n) + 100) {
      const keep = new Set(accounts)
      for (const [a, l] of listings) if (!keep.has(a) && Date.now() - l.at > 600_000) listings.delete(a)
    }
    return { requests: n.requests, complete, ...(error ? { error } : {}) }
  }

  return { ensure, listing: (a) => listings.get(a), paceMs }
}
