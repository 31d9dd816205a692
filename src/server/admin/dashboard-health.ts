import { sql } from 'drizzle-orm'
import type { DashboardHealth } from '../../shared/cockpit'
import type { Db } from '../db/client'

// The dashboard's "shop health" figures that belong to the payments module. They are read through
// this small interface so the payments module can answer them from its own tables (address lease
// history, cool-down, the transfer ledger, the scanner's checkpoint); the default source below reads
// today's tables.

export interface AddressPool {
  total: number
  /** Neither leased nor cooling down: an order placed now could take it. */
  free: number
  leased: number
  coolingDown: number
}

export interface ShopHealthSource {
  addressPool(db: Db): Promise<AddressPool>
  /** Transfers to our addresses that no order was credited with, waiting for the admin. */
  unmatchedTransfers(db: Db): Promise<number>
  /** Seconds the payment scanner is behind the chain's solidified head; null when unknown. */
  scannerLagSeconds(db: Db): Promise<number | null>
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows

/** From wallet_addresses and payments as they are today: no cool-down, no scanner. */
export const tableHealthSource: ShopHealthSource = {
  async addressPool(db) {
    const [row] = rowsOf<{ total: number; leased: number }>(
      await db.execute(sql`
        select count(*)::int as total, count(leased_order_id)::int as leased from wallet_addresses`),
    )
    const total = row?.total ?? 0
    const leased = row?.leased ?? 0
    return { total, free: total - leased, leased, coolingDown: 0 }
  },
  async unmatchedTransfers(db) {
    const [row] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from payments where order_id is null`),
    )
    return row?.n ?? 0
  },
  async scannerLagSeconds() {
    return null
  },
}

/** Below this many hours of free addresses left, the dashboard warns. */
export const POOL_WARNING_HOURS = 24
const WEEK_HOURS = 7 * 24

/**
 * The health block: the address pool and its forecast (free addresses divided by the rate at which
 * orders took addresses over the last 7 days), unmatched transfers, failing mails, scanner lag.
 */
export async function shopHealth(
  db: Db,
  source: ShopHealthSource = tableHealthSource,
  now: Date = new Date(),
): Promise<DashboardHealth> {
  const weekAgo = new Date(now.getTime() - WEEK_HOURS * 3_600_000)
  const [pool, unmatched, lag, weekly, mails] = await Promise.all([
    source.addressPool(db),
    source.unmatchedTransfers(db),
    source.scannerLagSeconds(db),
    db.execute(sql`
      select count(*)::int as n from orders
      where created_at >= ${weekAgo.toISOString()}::timestamptz and created_at <= ${now.toISOString()}::timestamptz`),
    db.execute(sql`
      select count(*)::int as n from mail_outbox
      where status = 'failed' or (status = 'pending' and attempts > 0)`),
  ])
  const perHour = (rowsOf<{ n: number }>(weekly)[0]?.n ?? 0) / WEEK_HOURS
  const dryIn = perHour > 0 ? pool.free / perHour : null
  return {
    addresses: { total: pool.total, free: pool.free, leased: pool.leased, cooling_down: pool.coolingDown },
    leases_per_hour: Math.round(perHour * 100) / 100,
    pool_dry_in_hours: dryIn === null ? null : Math.round(dryIn * 10) / 10,
    pool_warning: pool.total === 0 || (dryIn !== null && dryIn < POOL_WARNING_HOURS),
    unmatched_transfers: unmatched,
    mails_failing: rowsOf<{ n: number }>(mails)[0]?.n ?? 0,
    scanner_lag_seconds: lag,
  }
}
