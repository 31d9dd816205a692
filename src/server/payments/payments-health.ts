import { eq, sql } from 'drizzle-orm'
import { type ChainFamilyId, type ChainId, chainFamilies, familyOfChain } from '../../shared/chains'
import { readFollowerStatus } from '../chains/chain-follower'
import type { ProviderHealth, ProviderPool } from '../chains/tron/tron-pool'
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
  /** Seconds since the block time of the follower's checkpoint; null before it read a block (alerts). */
  followerLagSeconds(): Promise<number | null>
  /** The solidified blocks the follower has not read yet, as seconds; null when unknown (the sales view). */
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
    if (family !== 'tron' && total === 0 && !enabled.includes(family)) return []
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
export async function followerLagSeconds(db: Db, chain: ChainId = 'tron'): Promise<number | null> {
  const [row] = await db
    .select({ time: followerState.checkpointTime })
    .from(followerState)
    .where(eq(followerState.chain, chain))
  if (!row || row.time <= 0) return null
  return Math.max(0, Math.round((Date.now() - row.time) / 1000))
}

/**
 * Whether payment detection is delayed (the follower more than thresholdS behind the chain), and
 * whether the operator wants new checkouts refused meanwhile. Buyers poll; the answer is kept 2 s.
 */
export function createPaymentDelay(db: Db, thresholdS: number) {
  const state = cachedValue(async () => {
    const lag = await followerLagSeconds(db)
    const delayed = lag !== null && lag > thresholdS
    return { delayed, refuseCheckouts: delayed && (await loadSettings(db)).refuseCheckoutsWhileDelayed }
  }, 2000)
  return {
    delayed: async () => (await state.get()).delayed,
    refuseCheckouts: async () => (await state.get()).refuseCheckouts,
  }
}
export type PaymentDelay = ReturnType<typeof createPaymentDelay>

export function createShopHealth(
  db: Db,
  providers: Pick<ProviderPool, 'refreshHeads' | 'failingSince' | 'health'>,
  /** The families of the enabled chains (TRON's pool is shown always). */
  families: () => readonly ChainFamilyId[] = () => ['tron'],
): ShopHealth {
  return {
    addressPools: (now = new Date()) => addressPoolHealth(db, now, families()),
    mailFailing: () => failingMails(db),
    unmatchedTransfers: () => unmatchedTransferCount(db),
    followerLagSeconds: () => followerLagSeconds(db),
    async blocksBehindSeconds() {
      const status = await readFollowerStatus(db)
      // Three seconds a block: the solidified blocks not read yet, as time.
      return status.lagBlocks === null ? null : status.lagBlocks * 3
    },
    async providers() {
      // Heads older than a minute are asked for, so the lag figures stay current.
      await providers.refreshHeads(60_000)
      return { failingSince: providers.failingSince(), list: providers.health() }
    },
  }
}
