import { eq, sql } from 'drizzle-orm'
import type { ShopHealthSource } from '../admin/dashboard-health'
import type { Db } from '../db/client'
import { orders, payments, scannerState } from '../db/schema'
import { cachedValue } from '../lib/cached-value'
import type { HealthProbe } from '../notifications/notifier'
import { loadSettings } from '../settings/settings'
import { countAddressStates } from '../wallets/wallets.repo'
import { readScannerStatus } from './chain-scanner'
import type { ProviderPool } from './provider-pool'

// The payments module's answers to "how is the shop doing": the address pool as leases and
// cool-downs leave it, unmatched transfers waiting in the ledger, and how far the chain follower is
// behind. The operator's alerts and the admin dashboard read them here.

/** Addresses free now, leased and cooling down, and hours until none is free at the last week's pace. */
export async function addressPoolHealth(db: Db) {
  const states = await countAddressStates(db)
  const [week] = (
    (await db.execute(
      sql`select count(*)::int as n from ${orders} where created_at > now() - interval '7 days'`,
    )) as unknown as { rows: { n: number }[] }
  ).rows
  const perHour = (week?.n ?? 0) / (7 * 24)
  return {
    ...states,
    total: states.free + states.leased + states.cooling,
    perHour,
    hoursToDry: perHour > 0 ? states.free / perHour : null,
  }
}

export async function unmatchedTransferCount(db: Db): Promise<number> {
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
export async function followerLagSeconds(db: Db): Promise<number | null> {
  const [row] = await db
    .select({ time: scannerState.checkpointTime })
    .from(scannerState)
    .where(eq(scannerState.id, 1))
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

/** The operator alerts' view of the pool, the follower and the chain providers. */
export function paymentsHealthProbe(db: Db, providers: ProviderPool): HealthProbe {
  return {
    async pool() {
      const pool = await addressPoolHealth(db)
      return { free: pool.free, total: pool.total, hoursToDry: pool.hoursToDry }
    },
    scannerLagSeconds: () => followerLagSeconds(db),
    async providers() {
      // Heads older than a minute are asked for, so the lag figures stay current.
      await providers.refreshHeads(60_000)
      return { failingSince: providers.failingSince(), list: providers.health() }
    },
  }
}

/** The admin dashboard's view: pool with cool-downs, unmatched transfers, follower lag in seconds. */
export const ledgerHealthSource: ShopHealthSource = {
  async addressPool(db) {
    const pool = await addressPoolHealth(db)
    return { total: pool.total, free: pool.free, leased: pool.leased, coolingDown: pool.cooling }
  },
  unmatchedTransfers: unmatchedTransferCount,
  async scannerLagSeconds(db) {
    const status = await readScannerStatus(db)
    // Three seconds a block: the solidified blocks not read yet, as time.
    return status.lagBlocks === null ? null : status.lagBlocks * 3
  },
}
