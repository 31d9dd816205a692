import { eq, sql } from 'drizzle-orm'
import type { ShopHealthSource } from '../admin/dashboard-health'
import type { Db } from '../db/client'
import { orders, payments, scannerState } from '../db/schema'
import type { HealthProbe } from '../notifications/notifier'
import { countAddressStates } from '../wallets/wallets.repo'
import { readScannerStatus } from './chain-scanner'

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
 * Seconds since the follower last moved its checkpoint; the chain makes a block every 3 s, so more
 * than that means it is behind or stalled. Null before it has ever run.
 */
export async function scannerStalledSeconds(db: Db): Promise<number | null> {
  const [row] = await db
    .select({ seconds: sql<number>`extract(epoch from now() - ${scannerState.updatedAt})::float8` })
    .from(scannerState)
    .where(eq(scannerState.id, 1))
  return row ? Math.max(0, Math.round(row.seconds)) : null
}

/** The operator alerts' view of the pool and the follower. */
export function paymentsHealthProbe(db: Db): HealthProbe {
  return {
    async pool() {
      const pool = await addressPoolHealth(db)
      return { free: pool.free, total: pool.total, hoursToDry: pool.hoursToDry }
    },
    scannerLagSeconds: () => scannerStalledSeconds(db),
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
