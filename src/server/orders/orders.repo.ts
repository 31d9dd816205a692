import { and, eq, inArray, lt, sql } from 'drizzle-orm'
import type { ChainId } from '../../shared/chains'
import { centsToDollars } from '../../shared/money'
import { PAID_STATUSES } from '../../shared/order-status'
import type { Db } from '../db/client'
import {
  type CancelReason,
  type OrderItemSnapshot,
  type OrderStatus,
  orderStatusCounts,
  orders,
} from '../db/schema'
import { disableKeysOfOrder } from '../keys/licence-state'
import { releaseReservation } from '../keys/reservation'
import { releaseAddress, releaseToOwner } from '../wallets/wallets.repo'
import { recordOrderEvent } from '../webhooks/events'
import { paymentWindow } from './payment-window'

// The orders module owns the orders table: every change of an order's status, amounts and times
// goes through these functions. Others (payments, admin) call them inside their own transactions.

export type OrderRow = typeof orders.$inferSelect

/** An order's lines as answers carry them: the unit price as the wire's dollar number. */
export function orderItemsOnWire(items: readonly OrderItemSnapshot[]) {
  return items.map(({ product: { price_cents, ...product }, quantity }) => ({
    product: { ...product, price: centsToDollars(price_cents) },
    quantity,
  }))
}

/** Reads an order and locks its row until the transaction ends. */
export async function lockOrder(tx: Db, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update')
  return row
}

/**
 * Orders per status, exact, without counting the orders: the sums of the counters the database
 * keeps (drizzle/0020_million_orders.sql). Statuses with no order are absent.
 */
export async function orderCountsByStatus(db: Db): Promise<Map<OrderStatus, number>> {
  const rows = await db
    .select({ status: orderStatusCounts.status, n: sql<number>`sum(${orderStatusCounts.n})::int` })
    .from(orderStatusCounts)
    .groupBy(orderStatusCounts.status)
  return new Map(rows.map((r) => [r.status, r.n]))
}

export async function findOrder(db: Db, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId))
  return row
}

/**
 * A short fingerprint of what the buyer's status answer reads from each order (status, amounts, the
 * paying transaction, late, the window): the payment page's stream compares it to push news another
 * process wrote, one query for every open page.
 */
export async function orderFingerprints(db: Db, orderIds: readonly string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>()
  if (orderIds.length === 0) return found
  const rows = await db
    .select({
      id: orders.id,
      print: sql<string>`concat_ws('|', ${orders.status}, ${orders.amountReceivedUnits}::text, ${orders.nativeReceivedUnits}::text, ${orders.txHash}, ${orders.late}::text, ${orders.windowEndsAt}::text, ${orders.updatedAt}::text)`,
    })
    .from(orders)
    .where(inArray(orders.id, [...orderIds]))
  for (const r of rows) found.set(r.id, r.print)
  return found
}

/** What the ledger credits to the order, kept on the order for lists and the buyer's page. */
/** The order a buyer's dashboard link names (a paid order's access token). */
export async function findOrderByAccessToken(db: Db, token: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.accessToken, token))
  return row
}

export async function setOrderReceived(
  tx: Db,
  orderId: string,
  usdtUnits: bigint,
  trxSun: bigint,
): Promise<void> {
  await tx
    .update(orders)
    .set({ amountReceivedUnits: usdtUnits, nativeReceivedUnits: trxSun, updatedAt: new Date() })
    .where(eq(orders.id, orderId))
}

export interface PaidFacts {
  usdtUnits: bigint
  trxSun: bigint
  txHash: string | null
  paidAt: Date
  late: boolean
  /** Used only when the order has no token yet: a paid order keeps its dashboard token for life. */
  accessToken: string
}

/** Marks the order paid; answers the token it holds (the existing one when it had one). */
export async function markOrderPaid(tx: Db, orderId: string, facts: PaidFacts): Promise<string> {
  const [row] = await tx
    .update(orders)
    .set({
      status: 'paid',
      amountReceivedUnits: facts.usdtUnits,
      nativeReceivedUnits: facts.trxSun,
      txHash: sql`coalesce(${facts.txHash}, ${orders.txHash})`,
      paidAt: sql`coalesce(${orders.paidAt}, ${facts.paidAt.toISOString()}::timestamptz)`,
      late: facts.late,
      accessToken: sql`coalesce(${orders.accessToken}, ${facts.accessToken})`,
      cancelReason: null,
      updatedAt: new Date(),
    })
    .where(eq(orders.id, orderId))
    .returning({ accessToken: orders.accessToken })
  return row?.accessToken ?? facts.accessToken
}

/** A status change that needs nothing else (paid ↔ completed). */
export async function setOrderStatus(tx: Db, orderId: string, status: OrderStatus): Promise<void> {
  await tx.update(orders).set({ status, updatedAt: new Date() }).where(eq(orders.id, orderId))
}

/**
 * Ends an order unpaid. Its address rests for the cool-down from `endedAt` (for an expired order,
 * its grace end: chain time decided it).
 */
export async function cancelOrder(
  tx: Db,
  orderId: string,
  reason: CancelReason,
  endedAt: Date,
  cooldownMs: number,
): Promise<void> {
  await tx
    .update(orders)
    .set({ status: 'cancelled', cancelReason: reason, cancelledAt: new Date(), updatedAt: new Date() })
    .where(eq(orders.id, orderId))
  await releaseAddress(tx, orderId, endedAt, cooldownMs)
  // Stock-only keys held for the order go back on sale; keys it was sold answer "disabled".
  await releaseReservation(tx, orderId)
  await disableKeysOfOrder(tx, orderId, 'cancelled')
  await recordOrderEvent(tx, reason === 'expired' ? 'order.expired' : 'order.cancelled', orderId)
}

/**
 * The buyer gives up on a pending order: it is cancelled and its address rests for the cool-down.
 * Answers false when the order is unknown or no longer pending (paid orders are never cancelled here).
 */
export async function cancelPendingOrder(db: Db, orderId: string, cooldownMs: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId)
    if (order?.status !== 'pending') return false
    await cancelOrder(tx, orderId, 'buyer', new Date(), cooldownMs)
    return true
  })
}

/**
 * Pending orders whose grace period ended before `chainTimeMs` (the time of a block the follower has
 * read): nothing after that time can pay them. Cancels them and answers their ids.
 */
export async function expireOrdersBefore(
  tx: Db,
  chainTimeMs: number,
  cooldownMs: number,
  /** The chain whose time this is: only orders placed to be paid on it expire by it. */
  chain: ChainId,
): Promise<string[]> {
  const due = await tx
    .select({ id: orders.id, graceUntil: orders.graceUntil })
    .from(orders)
    .where(
      and(
        eq(orders.status, 'pending'),
        lt(orders.graceUntil, new Date(chainTimeMs)),
        eq(orders.chain, chain),
      ),
    )
    .for('update')
  for (const order of due) await cancelOrder(tx, order.id, 'expired', order.graceUntil, cooldownMs)
  return due.map((o) => o.id)
}

/**
 * The admin sets an ended order back to pending: it gets its own address back (refused when another
 * order has it) and a fresh payment window. A paid order keeps its token, keys and payments.
 */
export async function reopenOrder(
  tx: Db,
  order: OrderRow,
  windowMs: number,
  graceMs: number,
): Promise<'ok' | 'in_use' | 'removed'> {
  const now = new Date()
  const leased = await releaseToOwner(tx, order.id, order.walletAddress, now)
  if (leased !== 'ok') return leased
  await tx
    .update(orders)
    .set({
      status: 'pending',
      cancelReason: null,
      cancelledAt: null,
      ...paymentWindow(now, { windowMs, graceMs }),
      updatedAt: now,
    })
    .where(eq(orders.id, order.id))
  return 'ok'
}

/** Deletes orders rows (the admin's delete); other modules clear their own rows first. */
export async function deleteOrderRow(tx: Db, orderId: string): Promise<boolean> {
  const rows = await tx.delete(orders).where(eq(orders.id, orderId)).returning({ id: orders.id })
  return rows.length > 0
}

/** Statuses of several orders at once. */
export async function orderStatuses(db: Db, ids: readonly string[]): Promise<Map<string, OrderStatus>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .select({ id: orders.id, status: orders.status })
    .from(orders)
    .where(inArray(orders.id, [...ids]))
  return new Map(rows.map((r) => [r.id, r.status]))
}

/**
 * Uses of discount codes: orders placed with them that are not cancelled (a cancelled or expired
 * order gives its use back by its status alone). Answers the count per code, and per code and
 * lower-cased e-mail for the e-mails asked about.
 */
export async function countDiscountUses(
  tx: Db,
  codeIds: readonly number[],
  emails: readonly string[],
): Promise<{ total: Map<number, number>; byEmail: Map<string, number> }> {
  const total = new Map<number, number>()
  const byEmail = new Map<string, number>()
  if (codeIds.length === 0) return { total, byEmail }
  const ids = JSON.stringify(codeIds)
  const lowered = JSON.stringify(emails.map((e) => e.trim().toLowerCase()))
  const result = (await tx.execute(sql`
    select discount_code_id as id, null as email, count(*)::int as n from ${orders}
      where discount_code_id in (select value::int from jsonb_array_elements_text(${ids}::jsonb))
        and status <> 'cancelled'
      group by discount_code_id
    union all
    select discount_code_id, lower(email), count(*)::int from ${orders}
      where discount_code_id in (select value::int from jsonb_array_elements_text(${ids}::jsonb))
        and lower(email) in (select value from jsonb_array_elements_text(${lowered}::jsonb))
        and status <> 'cancelled'
      group by discount_code_id, lower(email)`)) as unknown as {
    rows: { id: number; email: string | null; n: number }[]
  }
  for (const row of result.rows) {
    if (row.email === null) total.set(Number(row.id), Number(row.n))
    else byEmail.set(`${row.id} ${row.email}`, Number(row.n))
  }
  return { total, byEmail }
}

export interface DiscountUsage {
  uses: number
  paidOrders: number
  revenueCents: number
  discountCents: number
}

/**
 * "Paid or completed" in SQL (PAID_STATUSES), written as the orders_paid_email_idx predicate:
 * `status in ('paid', 'completed')`.
 */
export const paidStatusSql = sql.raw(`status in (${PAID_STATUSES.map((s) => `'${s}'`).join(', ')})`)

/** Per code: uses held, paid orders, their revenue (after the discount) and the discount given. */
export async function discountUsage(db: Db): Promise<Map<number, DiscountUsage>> {
  const result = (await db.execute(sql`
    select discount_code_id as id,
      count(*) filter (where status <> 'cancelled')::int as uses,
      count(*) filter (where ${paidStatusSql})::int as paid,
      coalesce(sum(total_cents) filter (where ${paidStatusSql}), 0)::text as revenue,
      coalesce(sum(discount_cents) filter (where ${paidStatusSql}), 0)::text as discount
    from ${orders} where discount_code_id is not null group by discount_code_id`)) as unknown as {
    rows: { id: number; uses: number; paid: number; revenue: string; discount: string }[]
  }
  return new Map(
    result.rows.map((r) => [
      Number(r.id),
      {
        uses: Number(r.uses),
        paidOrders: Number(r.paid),
        revenueCents: Number(r.revenue),
        discountCents: Number(r.discount),
      },
    ]),
  )
}

/** An address's paid orders, newest first (at most `limit`), for "e-mail me my orders". */
export async function paidOrdersOf(db: Db, email: string, limit: number): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(
      and(
        sql`lower(${orders.email}) = ${email.trim().toLowerCase()}`,
        // The partial index's own predicate, so the planner uses it.
        paidStatusSql,
      ),
    )
    .orderBy(sql`${orders.createdAt} desc`, orders.id)
    .limit(limit)
}

/** Orders awaiting payment and the address each holds (the sighting watcher's look list). */
/** Pending orders and their addresses; with `chains`, only orders placed to be paid on one of them. */
export async function openOrderAddresses(
  db: Db,
  chains?: readonly ChainId[],
): Promise<{ id: string; address: string }[]> {
  return db
    .select({ id: orders.id, address: orders.walletAddress })
    .from(orders)
    .where(
      chains
        ? and(eq(orders.status, 'pending'), inArray(orders.chain, [...chains]))
        : eq(orders.status, 'pending'),
    )
}

/** Whether any order of this chain is pending (the follower reads an idle chain less often). */
export async function hasPendingOrder(db: Db, chain: ChainId): Promise<boolean> {
  const result = (await db.execute(
    sql`select exists (select 1 from orders where status = 'pending' and chain = ${chain}) as found`,
  )) as unknown as { rows: { found: boolean }[] }
  return result.rows[0]?.found === true
}
