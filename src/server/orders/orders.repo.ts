import { and, eq, inArray, lt, sql } from 'drizzle-orm'
import { centsToDollars } from '../../shared/money'
import type { Db } from '../db/client'
import {
  type CancelReason,
  type OrderItemSnapshot,
  type OrderStatus,
  orderStatusCounts,
  orders,
} from '../db/schema'
import { releaseReservation } from '../keys/reservation'
import { releaseAddress, releaseToOwner } from '../wallets/wallets.repo'
import { recordOrderEvent } from '../webhooks/events'

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

/** What the ledger credits to the order, kept on the order for lists and the buyer's page. */
export async function setOrderReceived(
  tx: Db,
  orderId: string,
  usdtUnits: bigint,
  trxSun: bigint,
): Promise<void> {
  await tx
    .update(orders)
    .set({ amountReceivedUnits: usdtUnits, trxReceivedSun: trxSun, updatedAt: new Date() })
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
      trxReceivedSun: facts.trxSun,
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
  // Stock-only keys held for the order go back on sale.
  await releaseReservation(tx, orderId)
  await recordOrderEvent(tx, reason === 'expired' ? 'order.expired' : 'order.cancelled', orderId)
}

/**
 * The buyer gives up on a pending order: it is cancelled and its address rests for the cool-down.
 * Answers false when the order is unknown or no longer pending (paid orders are never cancelled here).
 */
export async function cancelPendingOrder(db: Db, orderId: string, cooldownMs: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId)
    if (!order || order.status !== 'pending') return false
    await cancelOrder(tx, orderId, 'buyer', new Date(), cooldownMs)
    return true
  })
}

/**
 * Pending orders whose grace period ended before `chainTimeMs` (the time of a block the follower has
 * read): nothing after that time can pay them. Cancels them and answers their ids.
 */
export async function expireOrdersBefore(tx: Db, chainTimeMs: number, cooldownMs: number): Promise<string[]> {
  const due = await tx
    .select({ id: orders.id, graceUntil: orders.graceUntil })
    .from(orders)
    .where(and(eq(orders.status, 'pending'), lt(orders.graceUntil, new Date(chainTimeMs))))
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
      expiresAt: new Date(now.getTime() + windowMs),
      graceUntil: new Date(now.getTime() + windowMs + graceMs),
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
