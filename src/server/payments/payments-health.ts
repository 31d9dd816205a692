import { eq, sql } from 'drizzle-orm'
import {
  type ChainFamilyId,
  type ChainId,
  chainFamilies,
  familyOfChain,
  firstFamily,
} from '../../shared/chains'
import type { ChainAdapter, ChainProvidersView } from '../chains/chain'
import { readFollowerStatus } from '../chains/chain-follower'
import type { ProviderHealth } from '../chains/provider-types'
import type { Db } from '../db/client'
import { followerState, orders, payments } from '../db/schema'
import { type FailingMails, failingMails } from '../delivery/order-mail.repo'
import { cachedValue } from '../lib/cached-value'
import { loadSettings } from '../settings/settings'
import { countAddressStates } from '../wallets/wallets.repo'

// The shop's health, in one interface the app runs (ShopHealth, built by createShopHealth): the
// address pool as leases and cool-downs leave it, unmatched transfers waiting in the ledger, how far
// the chain follower is behind, the chain providers, and failing e-mail. Each figure has its one
// home here: the pool's forecast and "mail failing" are not computed anywhere else. The operator's alerts (notifier.ts) and the
// admin's sales view (sales.repo.ts) both read it.

export interface AddressPoolHealth {
  /** The family this part of the pool serves: an order leases an address of its chain's family. */
  family: ChainFamilyId
  /** Free to lease now (wallets' countAddressStates: neither leased nor cooling down). */
  free: number
  leased: number
  cooling: number
  total: number
  /** Orders of the family's chains placed per hour over the last week (each leases an address). */
  ordersPerHour: number
  /** Hours until none is free at the last week's pace of orders; null while no order came. */
  hoursToDry: number | null
}

export interface ShopHealth {
  /**
   * The pool now, and its forecast from the week before `now` (default: now), for each family that
   * has addresses or an enabled chain (TRON always); TRON first.
   */
  addressPools(now?: Date): Promise<AddressPoolHealth[]>
  /** Order and operator e-mails failing (delivery's failingMails). */
  mailFailing(): Promise<FailingMails>
  /** Transfers to our addresses that no order was credited with, waiting for the operator. */
  unmatchedTransfers(): Promise<number>
  /**
   * Seconds since the block time of the follower's checkpoint, of the enabled chain most behind;
   * null before any has read a block (the "scanner lag" alert).
   */
  followerLagSeconds(): Promise<number | null>
  /**
   * The final blocks the followers have not read yet, as seconds at each chain's block time, of the
   * chain most behind; null when unknown (the sales view).
   */
  blocksBehindSeconds(): Promise<number | null>
  /** The chain providers' health, and since when every one has failed (epoch ms; null: one answers). */
  providers(): Promise<{ failingSince: number | null; list: ProviderHealth[] }>
}

/**
 * Per family: addresses free now, leased and cooling down, and hours until none is free at the last
 * week's pace of that family's orders. `enabled`: the families of the enabled chains.
 */
async function addressPoolHealth(
  db: Db,
  now: Date,
  enabled: readonly ChainFamilyId[],
): Promise<AddressPoolHealth[]> {
  const states = await countAddressStates(db)
  const week = (
    (await db.execute(
      sql`select chain, count(*)::int as n from ${orders}
          where created_at > ${now.toISOString()}::timestamptz - interval '7 days'
            and created_at <= ${now.toISOString()}::timestamptz
          group by chain`,
    )) as unknown as { rows: { chain: ChainId; n: number }[] }
  ).rows
  return chainFamilies.flatMap((family) => {
    const s = states[family]
    const total = s.free + s.leased + s.cooling
    if (family !== firstFamily && total === 0 && !enabled.includes(family)) return []
    const placed = week.filter((r) => familyOfChain[r.chain] === family).reduce((n, r) => n + Number(r.n), 0)
    const perHour = placed / (7 * 24)
    return [
      {
        family,
        ...s,
        total,
        ordersPerHour: perHour,
        hoursToDry: perHour > 0 ? s.free / perHour : null,
      },
    ]
  })
}

async function unmatchedTransferCount(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(payments)
    .where(eq(payments.status, 'unmatched'))
  return row?.n ?? 0
}

/**
 * How far the follower is behind the chain: seconds between now and the block time of its
 * checkpoint (solidified blocks are about a minute old when read). Null before it has read a block.
 */
export async function followerLagSeconds(db: Db, chain: ChainId): Promise<number | null> {
  const [row] = await db
    .select({ time: followerState.checkpointTime })
    .from(followerState)
    .where(eq(followerState.chain, chain))
  if (!row || row.time <= 0) return null
  return Math.max(0, Math.round((Date.now() - row.time) / 1000))
}

/** The worst of a figure over the enabled chains; null when no chain has one. */
async function worstOf(
  chains: readonly ChainId[],
  figure: (chain: ChainId) => Promise<number | null>,
): Promise<number | null> {
  const figures = (await Promise.all(chains.map(figure))).filter((n): n is number => n !== null)
  return figures.length === 0 ? null : Math.max(...figures)
}

/**
 * Whether payment detection is delayed on a chain (its follower more than thresholdS behind it),
 * and whether the operator wants new checkouts refused meanwhile (while any enabled chain is).
 * Buyers poll; the answers are kept 2 s.
 */
export function createPaymentDelay(db: Db, thresholdS: number, chains: () => readonly ChainId[]) {
  const state = cachedValue(async () => {
    const lags = new Map<ChainId, number | null>()
    for (const chain of chains()) lags.set(chain, await followerLagSeconds(db, chain))
    const delayedOn = new Set([...lags].filter(([, lag]) => lag !== null && lag > thresholdS).map(([c]) => c))
    const refuse = delayedOn.size > 0 && (await loadSettings(db)).refuseCheckoutsWhileDelayed
    return { delayedOn, refuseCheckouts: refuse }
  }, 2000)
  return {
    /** Whether detection on the order's chain is delayed (the buyer's notice). */
    delayed: async (chain: ChainId) => (await state.get()).delayedOn.has(chain),
    refuseCheckouts: async () => (await state.get()).refuseCheckouts,
  }
}
export type PaymentDelay = ReturnType<typeof createPaymentDelay>

export function createShopHealth(
  db: Db,
  providers: Pick<ChainProvidersView, 'refreshHeads' | 'failingSince' | 'health'>,
  /** The enabled chains: each has its follower, lag and block time (the family list's first always). */
  chains: () => readonly Pick<ChainAdapter, 'chain' | 'family' | 'blockIntervalMs'>[],
): ShopHealth {
  const ids = () => chains().map((c) => c.chain)
  return {
    addressPools: (now = new Date()) =>
      addressPoolHealth(
        db,
        now,
        chains().map((c) => c.family),
      ),
    mailFailing: () => failingMails(db),
    unmatchedTransfers: () => unmatchedTransferCount(db),
    followerLagSeconds: () => worstOf(ids(), (chain) => followerLagSeconds(db, chain)),
    async blocksBehindSeconds() {
      const byChain = new Map(chains().map((c) => [c.chain, c.blockIntervalMs]))
      // Each chain's final blocks not read yet, as time at that chain's block time.
      return worstOf(ids(), async (chain) => {
        const status = await readFollowerStatus(db, chain)
        return status.lagBlocks === null ? null : (status.lagBlocks * (byChain.get(chain) ?? 0)) / 1000
      })
    },
    async providers() {
      // Heads older than a minute are asked for, so the lag figures stay current.
      await providers.refreshHeads(60_000)
      return { failingSince: providers.failingSince(), list: providers.health() }
    },
  }
}
