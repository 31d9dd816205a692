import { type SQL, sql } from 'drizzle-orm'
import type { SalesAnswer, SalesDay, SalesHealth, SalesStock, SalesTotals } from '../../shared/cockpit'
import { formatSun } from '../../shared/trx'
import type { Db } from '../db/client'
import { isLowStock, lowStockThreshold } from '../keys/low-stock'
import { orderCountsByStatus, paidStatusSql } from '../orders/orders.repo'
import type { ShopHealth } from '../payments/payments-health'
import { refundsPerDay } from '../refunds/refunds.repo'
import { loadSettings } from '../settings/settings'

// The admin's sales view: its figures come from counters the database keeps exact (decision 031,
// migrations 0020 and 0026): orders per status, per past UTC day (created, of those paid, paid and
// the sums), and licence keys per product, so an answer costs about the same at a million orders as
// at ten. Today's figures, up to now, and the part of the day thirty days ago that conversion's
// 30 × 24 h window holds, are read from their own orders by index. The queries run side by side.
// Days are UTC days. Revenue is the paid orders' totals; USDT and TRX are what actually arrived in
// each currency (TRX also at each order's locked rate in USD). Refunds are counted on the day they
// were sent (a refunded order stays in its day's revenue) and net revenue is revenue less refunds.

export const SALES_DAYS = 30

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows

const centsText = (cents: bigint) => {
  const sign = cents < 0n ? '-' : ''
  const abs = cents < 0n ? -cents : cents
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`
}

interface Sums {
  orders: number
  cents: bigint
  usdt: bigint
  trx: bigint
  trxMicros: bigint
  /** Refunds sent that day (src/server/refunds), USD micros. */
  refundMicros: bigint
}

const emptySums = (): Sums => ({ orders: 0, cents: 0n, usdt: 0n, trx: 0n, trxMicros: 0n, refundMicros: 0n })

function add(a: Sums, b: Sums): Sums {
  return {
    orders: a.orders + b.orders,
    cents: a.cents + b.cents,
    usdt: a.usdt + b.usdt,
    trx: a.trx + b.trx,
    trxMicros: a.trxMicros + b.trxMicros,
    refundMicros: a.refundMicros + b.refundMicros,
  }
}

function totalsOf(s: Sums): SalesTotals {
  return {
    paid_orders: s.orders,
    revenue_usdt: formatSun(s.usdt),
    revenue_trx: formatSun(s.trx),
    revenue_trx_usd: centsText(s.trxMicros / 10_000n),
    revenue_usd: centsText(s.cents),
    // A refund is counted on the day it was sent, rounded up to the cent (net revenue never flatters).
    refunds_usd: centsText((s.refundMicros + 9_999n) / 10_000n),
    net_usd: centsText(s.cents - (s.refundMicros + 9_999n) / 10_000n),
  }
}

/**
 * Orders created from `from` up to `now`, and of those the ones paid or completed now: the whole
 * days between from's day and today from the counters, the two days' parts from their orders by
 * orders_created_idx. One row: created, paid.
 */
function createdWithin(from: Date, now: Date): SQL {
  const todayStart = dayStart(now)
  return sql`
    select coalesce(sum(created), 0)::int as created, coalesce(sum(paid), 0)::int as paid from (
      select sum(created) as created, sum(created_paid) as paid
      from order_day_counts
      where day > ${dayKey(from.getTime())}::date and day < ${dayKey(todayStart)}::date
      union all
      select count(*), count(*) filter (where ${paidStatusSql})
      from orders
      where (created_at >= ${from.toISOString()}::timestamptz
             and created_at < ${new Date(Math.min(dayStart(from) + 86_400_000, todayStart)).toISOString()}::timestamptz)
         or (created_at >= ${new Date(Math.max(todayStart, from.getTime())).toISOString()}::timestamptz
             and created_at <= ${now.toISOString()}::timestamptz)
    ) as parts`
}

/** Start of the UTC day of a moment, in ms. */
const dayStart = (d: Date) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())

/** YYYY-MM-DD of a UTC day. */
const dayKey = (ms: number) => new Date(ms).toISOString().slice(0, 10)

export async function salesFigures(db: Db, opts: { now?: Date; health: ShopHealth }): Promise<SalesAnswer> {
  const now = opts.now ?? new Date()
  const todayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  const first = new Date(todayStart - (SALES_DAYS - 1) * 86_400_000)
  const thirtyDaysAgo = new Date(now.getTime() - SALES_DAYS * 86_400_000)

  const [daily, statuses, conversion, stock, health, settings, refunded] = await Promise.all([
    // Past days from the counters; today (up to now) from today's paid orders by orders_paid_at_idx.
    db.execute(sql`
      select to_char(day, 'YYYY-MM-DD') as day,
             sum(paid)::int as orders,
             sum(cents)::text as cents,
             sum(usdt)::text as usdt,
             sum(native_units)::text as trx,
             sum(native_micros)::text as trx_micros
      from order_day_counts
      where day >= ${dayKey(first.getTime())}::date and day < ${dayKey(todayStart)}::date
      group by day
      having sum(paid) <> 0
      union all
      select ${dayKey(todayStart)},
             count(*)::int,
             coalesce(sum(total_cents), 0)::text,
             coalesce(sum(amount_received_units), 0)::text,
             coalesce(sum(native_received_units), 0)::text,
             coalesce(sum(div(native_received_units::numeric * coalesce(native_rate_e8, 0), 100000000)), 0)::text
      from orders
      where paid_at >= ${new Date(todayStart).toISOString()}::timestamptz
        and paid_at <= ${now.toISOString()}::timestamptz
        and ${paidStatusSql}`),
    orderCountsByStatus(db),
    db.execute(createdWithin(thirtyDaysAgo, now)),
    db.execute(sql`
      select p.id, p.name, p.delivery_mode, p.low_stock_threshold, p.licence_activation_limit, p.licence_validity_days,
             coalesce(sum(k.keys_left), 0)::int as keys_left,
             coalesce(sum(k.keys_reserved), 0)::int as keys_reserved,
             coalesce(sum(k.keys_sold), 0)::int as keys_sold
      from products p
      left join product_key_counts k on k.product_id = p.id
      where not p.is_free and p.price_cents > 0
      group by p.id
      order by p.sort_order, p.id`),
    shopHealth(opts.health, now),
    loadSettings(db),
    refundsPerDay(db, first),
  ])
  const shopThreshold = settings.lowStockThreshold

  const byDay = new Map<string, Sums>()
  for (const r of rowsOf<{
    day: string
    orders: number
    cents: string
    usdt: string
    trx: string
    trx_micros: string
  }>(daily)) {
    byDay.set(r.day, {
      orders: r.orders,
      cents: BigInt(r.cents),
      usdt: BigInt(r.usdt),
      trx: BigInt(r.trx),
      trxMicros: BigInt(r.trx_micros.split('.')[0] as string),
      refundMicros: 0n,
    })
  }
  for (const [day, micros] of refunded)
    byDay.set(day, { ...(byDay.get(day) ?? emptySums()), refundMicros: micros })
  const days: SalesDay[] = []
  let today = emptySums()
  let week = emptySums()
  let month = emptySums()
  for (let i = 0; i < SALES_DAYS; i++) {
    const key = dayKey(first.getTime() + i * 86_400_000)
    const sums = byDay.get(key) ?? emptySums()
    const t = totalsOf(sums)
    days.push({
      day: key,
      paid_orders: t.paid_orders,
      revenue_usdt: t.revenue_usdt,
      revenue_trx: t.revenue_trx,
      revenue_trx_usd: t.revenue_trx_usd,
      revenue_usd: t.revenue_usd,
      refunds_usd: t.refunds_usd,
      net_usd: t.net_usd,
    })
    month = add(month, sums)
    if (i >= SALES_DAYS - 7) week = add(week, sums)
    if (i === SALES_DAYS - 1) today = sums
  }

  const byStatus = { pending: 0, paid: 0, completed: 0, cancelled: 0, refunded: 0, partially_refunded: 0 }
  for (const [status, n] of statuses) byStatus[status] = n

  const [conv] = rowsOf<{ created: number; paid: number }>(conversion)
  const created = conv?.created ?? 0
  const paid = conv?.paid ?? 0

  return {
    success: true,
    generated_at: now.toISOString(),
    days,
    totals: { today: totalsOf(today), last_7_days: totalsOf(week), last_30_days: totalsOf(month) },
    orders_by_status: byStatus,
    conversion: { created, paid, rate: created > 0 ? Math.round((paid / created) * 10_000) / 10_000 : null },
    health,
    low_stock_threshold: shopThreshold,
    stock: rowsOf<{
      id: number
      name: string
      delivery_mode: SalesStock['delivery_mode']
      low_stock_threshold: number | null
      licence_activation_limit: number | null
      licence_validity_days: number | null
      keys_left: number
      keys_reserved: number
      keys_sold: number
    }>(stock).map((r) => ({
      product_id: r.id,
      name: r.name,
      delivery_mode: r.delivery_mode,
      keys_left: r.keys_left,
      keys_reserved: r.keys_reserved,
      keys_sold: r.keys_sold,
      low_stock_threshold: r.low_stock_threshold,
      low_below: lowStockThreshold(
        { deliveryMode: r.delivery_mode, productThreshold: r.low_stock_threshold },
        shopThreshold,
      ),
      low: isLowStock(
        { deliveryMode: r.delivery_mode, keysLeft: r.keys_left, productThreshold: r.low_stock_threshold },
        shopThreshold,
      ),
      licence_activation_limit: r.licence_activation_limit,
      licence_validity_days: r.licence_validity_days,
    })),
  }
}

/** Below this many hours of free addresses left, the sales view warns. */
const POOL_WARNING_HOURS = 24

/**
 * The health block, from the shop's health (payments-health.ts): each family's address pool and its forecast
 * over the 7 days before `now`, unmatched transfers, failing mails, follower lag.
 */
async function shopHealth(health: ShopHealth, now: Date): Promise<SalesHealth> {
  const [pools, unmatched, lag, mails] = await Promise.all([
    health.addressPools(now),
    health.unmatchedTransfers(),
    health.blocksBehindSeconds(),
    health.mailFailing(),
  ])
  return {
    pools: pools.map((pool) => {
      const dryIn = pool.hoursToDry
      return {
        family: pool.family,
        addresses: { total: pool.total, free: pool.free, leased: pool.leased, cooling_down: pool.cooling },
        leases_per_hour: Math.round(pool.ordersPerHour * 100) / 100,
        pool_dry_in_hours: dryIn === null ? null : Math.round(dryIn * 10) / 10,
        pool_warning: pool.total === 0 || (dryIn !== null && dryIn < POOL_WARNING_HOURS),
      }
    }),
    unmatched_transfers: unmatched,
    mails_failing: mails.count,
    follower_lag_seconds: lag,
  }
}
