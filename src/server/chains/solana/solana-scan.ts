import type { ChainError } from '../chain'
import {
  ACCOUNTS_PER_READ,
  type Counter,
  listSignatures,
  readAccounts,
  readStatuses,
  type SolanaContext,
  STATUSES_PER_READ,
} from './solana-context'
import { balanceWord, type SignatureInfo } from './solana-types'

// Solana makes 2.5 slots a second: reading every block does not fit a provider key's day. The
// family watches instead the watched addresses' token accounts, and the follower and the sighting
// watcher share what it learns: one look serves "confirming" and "paid" (decision 069).
//
// A look reads the balances of the accounts due, 100 to a request (getMultipleAccounts at
// `confirmed`), and lists the signatures (getSignaturesForAddress) only of the accounts never
// listed, or whose balance (or existence) differs from the one their last listing was made at: the
// listing, not the balance, stays what is recorded (amounts, senders, failed transactions). The
// signatures listed but not finalized yet are asked for their status (getSignatureStatuses, 256 to
// a request): that is how the finalized side learns a payment is final without listing again, and
// how a transaction taken back by a fork leaves the listings. An account that does not exist is not
// listed (nothing was paid into it). A balance that went up and down between two looks (a payment,
// then the operator's own sweep, or the account closed by its owner) is not seen here: the listing
// at the order's end (listReceived, the safety net) records it.
//
// The looks are paced to the providers' day: with PER_DAY set, a look at each account comes every
// (balance reads of a look ÷ requests a second the day allows), never sooner than SOLANA_POLL_MS.

/** Share of the day's budget the balance reads may take (the rest: listings and statuses after a payment, finalized-slot looks, transactions, the buyer's signature). */
const READ_SHARE = 0.85
/** The finalized slot is asked for at least this far apart with nothing watched (an idle shop's whole cost). */
export const IDLE_HEAD_EVERY_MS = 180_000
const CONCURRENCY = 4

export interface Listing {
  /** When the listing was last known current (ms): listed then, or its balance read unchanged. */
  at: number
  items: SignatureInfo[]
}

interface Watched {
  listing: Listing
  /** The balance word the listing was made at (balanceWord). */
  covered: string
  /** The `confirmed` slot up to which the listing is known to name every transaction (its balance's read). */
  slot: number
  /** List again at the next look (a listed transaction no node knows final). */
  doubt: boolean
}

export interface Scanner {
  /** Looks at the accounts whose last look is older than the pace; answers whether all are current now. */
  ensure(
    accounts: readonly string[],
    floorSlot: number,
    opts: {
      lane?: 'sightings'
      deadline?: number
      /** 'only': the pending signatures' statuses alone; 'skip': all but them. */
      statuses?: 'only' | 'skip'
    },
  ): Promise<{ requests: number; complete: boolean; finalized: number; error?: ChainError }>
  listing(account: string): Listing | undefined
  /**
   * The slot up to which every one of these accounts' listings names every transaction (the oldest
   * of their balance reads); null when one was never read. The follower's checkpoint never passes it.
   */
  currentSlot(accounts: readonly string[]): number | null
  /** The accounts listing this signature are listed again at their next look. */
  doubt(signature: string): void
  /** How long a look stays current with this many accounts watched. */
  paceMs(accounts: number): number
}

/** Runs `work` on each item, CONCURRENCY at a time, until one fails (its error is answered). */
async function each<T>(
  items: readonly T[],
  work: (item: T) => Promise<ChainError | undefined>,
  deadline?: number,
): Promise<ChainError | undefined> {
  let error: ChainError | undefined
  let next = 0
  const worker = async () => {
    while (next < items.length && !error) {
      if (deadline && Date.now() > deadline) return
      const e = await work(items[next++] as T)
      if (e) error = e
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker))
  return error
}

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

/**
 * The statuses of the watched accounts' listed signatures not final yet (256 to a request): marked
 * finalized when they are; gone from the listings when no node history names them, asked at or
 * after their slot (a fork took them back); the account listed again when their slot differs.
 */
async function askStatuses(
  ctx: SolanaContext,
  watched: Map<string, Watched>,
  accounts: readonly string[],
  n: Counter,
  deadline?: number,
): Promise<{ finalized: number; error?: ChainError }> {
  const pending = new Map<string, { account: string; item: SignatureInfo }[]>()
  for (const a of accounts) {
    for (const item of watched.get(a)?.listing.items ?? []) {
      if (item.confirmationStatus === 'finalized') continue
      pending.set(item.signature, [...(pending.get(item.signature) ?? []), { account: a, item }])
    }
  }
  let finalized = 0
  const error = await each(
    chunks([...pending.keys()], STATUSES_PER_READ),
    async (batch) => {
      const res = await readStatuses(ctx, batch, n)
      if (res.status === 'error') return res
      batch.forEach((sig, i) => {
        const status = res.statuses[i] ?? null
        for (const { account, item } of pending.get(sig) ?? []) {
          const w = watched.get(account)
          if (!w) continue
          if (status === null) {
            if (res.slot >= item.slot) w.listing.items = w.listing.items.filter((i) => i.signature !== sig)
          } else if (status.slot !== item.slot) {
            w.doubt = true
          } else if (status.confirmationStatus === 'finalized') {
            item.confirmationStatus = 'finalized'
            finalized += 1
          }
        }
      })
    },
    deadline,
  )
  return { finalized, ...(error ? { error } : {}) }
}

export function createScanner(ctx: SolanaContext): Scanner {
  const watched = new Map<string, Watched>()
  /** The most accounts watched lately: the watcher's smaller set must not speed up the looks. */
  let most = { n: 0, at: 0 }

  function paceMs(accounts: number): number {
    const now = Date.now()
    if (accounts >= most.n || now - most.at > 60_000) most = { n: accounts, at: now }
    const perDay = ctx.pool.requestBudget().perDay
    if (!perDay) return ctx.config.pollMs
    const perSecond = (perDay * READ_SHARE) / 86_400 - 2 / (ctx.config.finalEveryMs / 1000)
    if (perSecond <= 0) return 3_600_000
    // A look costs one request per 100 accounts (the balances); listings come only with a change.
    const reads = Math.ceil(most.n / ACCOUNTS_PER_READ)
    return Math.max(ctx.config.pollMs, Math.ceil((reads / perSecond) * 1000))
  }

  async function ensure(
    accounts: readonly string[],
    floorSlot: number,
    opts: {
      lane?: 'sightings'
      deadline?: number
      /** 'only': the pending signatures' statuses alone; 'skip': all but them. */
      statuses?: 'only' | 'skip'
    },
  ) {
    const n: Counter = { requests: 0 }
    const lane = { lane: opts.lane }
    const fresh = Date.now() - paceMs(accounts.length)
    // A little early counts as current: a look paced to the slot would otherwise miss by milliseconds.
    const due =
      opts.statuses === 'only' ? [] : accounts.filter((a) => (watched.get(a)?.listing.at ?? 0) <= fresh + 50)
    const at = Date.now()

    // 1. The balances, 100 to a request, each with the slot it was read at.
    const balances = new Map<string, { word: string; slot: number }>()
    let error = await each(
      chunks(due, ACCOUNTS_PER_READ),
      async (batch) => {
        const res = await readAccounts(ctx, batch, n, lane)
        if (res.status === 'error') return res
        batch.forEach((a, i) => {
          balances.set(a, { word: balanceWord(res.accounts[i] ?? null), slot: res.slot })
        })
      },
      opts.deadline,
    )

    // 2. The statuses of what is listed and not final yet: final now, still confirmed, or gone.
    // Asked by the follower's passes (not the sighting watcher's: it reads `confirmed`) of every
    // watched account's pending signatures, not only the due ones: "paid" does not wait for the
    // balance pace, and this costs a request only while a payment waits for finality.
    let finalized = 0
    if (!error && opts.lane !== 'sightings' && opts.statuses !== 'skip') {
      const asked = await askStatuses(ctx, watched, accounts, n, opts.deadline)
      error = asked.error
      finalized = asked.finalized
    }

    // 3. The listings of the accounts never listed, doubted, or whose balance moved. An account
    // that does not exist and was never listed has received nothing: no listing until it exists (a
    // payment creates it). One closed meanwhile by its owner is the operator's sweep: see above.
    for (const a of due) {
      if (!watched.has(a) && balances.get(a)?.word === 'none')
        watched.set(a, {
          listing: { at, items: [] },
          covered: 'none',
          doubt: false,
          slot: balances.get(a)?.slot ?? 0,
        })
    }
    const toList = due.filter((a) => {
      const w = watched.get(a)
      const b = balances.get(a)
      return b !== undefined && (!w || w.doubt || w.covered !== b.word)
    })
    const listing = new Set(toList)
    if (!error) {
      error = await each(
        toList,
        async (account) => {
          const b = balances.get(account) as { word: string; slot: number }
          // Back to the floor, at or after the slot the balance was read at.
          const res = await listSignatures(
            ctx,
            account,
            { floorSlot, commitment: 'confirmed', minContextSlot: b.slot },
            n,
            lane,
          )
          if (res.status === 'error') return res
          // What an earlier listing had above the floor and this one lacks stays until its status
          // says no node knows it (step 2): a listing is never believed to take a payment back. The
          // earlier listing is the one there now: the other lane may have listed meanwhile.
          const prior = watched.get(account)
          const kept =
            prior?.listing.items.filter(
              (i) => i.slot > floorSlot && !res.items.some((r) => r.signature === i.signature),
            ) ?? []
          watched.set(account, {
            listing: { at, items: [...res.items, ...kept] },
            covered: b.word,
            slot: Math.max(prior?.slot ?? 0, b.slot),
            doubt: false,
          })
        },
        opts.deadline,
      )
    }

    // 4. The others are current as they were: their balance did not move.
    if (!error) {
      for (const [a, b] of balances) {
        const w = watched.get(a)
        if (w && !listing.has(a) && w.covered === b.word) {
          w.listing.at = at
          w.slot = Math.max(w.slot, b.slot)
        }
      }
    }

    const complete = !error && accounts.every((a) => (watched.get(a)?.listing.at ?? 0) > fresh)
    // Forget accounts no longer watched by anyone for a while.
    if (watched.size > 4 * Math.max(1, most.n) + 100) {
      const keep = new Set(accounts)
      for (const [a, w] of watched) if (!keep.has(a) && Date.now() - w.listing.at > 600_000) watched.delete(a)
    }
    return { requests: n.requests, complete, finalized, ...(error ? { error } : {}) }
  }

  return {
    ensure,
    listing: (a) => watched.get(a)?.listing,
    currentSlot(accounts) {
      let min: number | null = null
      for (const a of accounts) {
        const w = watched.get(a)
        if (!w) return null
        if (min === null || w.slot < min) min = w.slot
      }
      return min
    },
    doubt(signature) {
      for (const w of watched.values())
        if (w.listing.items.some((i) => i.signature === signature)) w.doubt = true
    },
    paceMs,
  }
}
