import { and, desc, eq, isNull, type SQL, sql } from 'drizzle-orm'
import type {
  AdminOrder,
  AdminOrderDetail,
  AdminOrderStatus,
  AdminPayment,
  FetchOrdersAnswer,
} from '../../shared/admin'
import { centsToDollars, microsToCents } from '../../shared/money'
import { isValidTronAddress } from '../../shared/tron-address'
import { formatSun, receivedUsdMicros } from '../../shared/trx'
import type { Db } from '../db/client'
import { mailOutbox, orders, payments } from '../db/schema'
import { type FulfilContext, fulfilOrder } from '../delivery/fulfil-order'
import { keysOfOrder } from '../keys/key-stock'
import { newAccessToken } from '../payments/credit-order'
import { releaseLease } from '../wallets/wallets.repo'

type OrderRow = typeof orders.$inferSelect

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function toAdminOrder(row: OrderRow): AdminOrder {
  const received = receivedUsdMicros(row.amountReceivedUnits, row.trxReceivedSun, row.trxRateE8)
  const receivedCents = microsToCents(received)
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    email: row.email,
    items: row.items,
    total: centsToDollars(row.totalCents),
    wallet_address: row.walletAddress,
    status: row.status,
    amount_received: centsToDollars(receivedCents),
    trx_amount: row.trxAmountSun !== null ? formatSun(row.trxAmountSun) : null,
    trx_received: formatSun(row.trxReceivedSun),
    paid_at: row.paidAt?.toISOString() ?? null,
    tx_hash: row.txHash,
    late: row.late,
    underpaid: row.status === 'pending' && receivedCents > 0 && receivedCents < row.totalCents,
  }
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`)

/**
 * Search: a whole order id or a whole TRON address is an exact, indexed match; anything else is a
 * case-insensitive substring of the id, the e-mail or the address.
 */
function searchCondition(search: string): SQL {
  const lower = search.toLowerCase()
  if (UUID.test(search)) return eq(orders.id, lower)
  if (isValidTronAddress(search)) return eq(orders.walletAddress, search)
  const like = `%${escapeLike(lower)}%`
  // The expression of the trigram index orders_search_trgm_idx (drizzle/0004_admin_search.sql).
  return sql`lower(${orders.id}::text || ' ' || ${orders.email} || ' ' || ${orders.walletAddress}) like ${like}`
}

export async function listOrders(
  db: Db,
  opts: { search?: string; status?: AdminOrderStatus | 'all'; page: number; pageSize: number },
): Promise<FetchOrdersAnswer> {
  const conditions: SQL[] = []
  if (opts.status && opts.status !== 'all') conditions.push(eq(orders.status, opts.status))
  if (opts.search) conditions.push(searchCondition(opts.search))
  const where = conditions.length ? and(...conditions) : undefined
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(opts.pageSize)
      .offset((opts.page - 1) * opts.pageSize),
    db.select({ n: sql<number>`count(*)::int` }).from(orders).where(where),
  ])
  return {
    success: true,
    orders: rows.map(toAdminOrder),
    total_count: counted?.n ?? 0,
    page: opts.page,
    page_size: opts.pageSize,
  }
}

/**
 * Any status to any other (specification section 4); cancelling frees the order's address at once.
 * Setting a not-yet-paid order to paid or completed (a payment the admin checked by hand) delivers
 * it as the watcher would: a dashboard token, keys and the e-mail, in the same transaction.
 * Answers whether the order was delivered by this change (null when the order does not exist).
 */
export async function updateOrderStatus(
  db: Db,
  orderId: string,
  status: AdminOrderStatus,
  fulfil: FulfilContext,
): Promise<{ delivered: boolean } | null> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ status: orders.status, accessToken: orders.accessToken })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for('update')
    if (!before) return null
    const now = new Date()
    const becomesPaid =
      (status === 'paid' || status === 'completed') &&
      before.status !== 'paid' &&
      before.status !== 'completed'
    await tx
      .update(orders)
      .set({
        status,
        updatedAt: now,
        ...(status === 'cancelled' ? { cancelledAt: now } : {}),
        ...(status === 'paid' || status === 'completed'
          ? { paidAt: sql`coalesce(${orders.paidAt}, now())`, watchedUntil: null }
          : {}),
        ...(becomesPaid && !before.accessToken ? { accessToken: newAccessToken() } : {}),
      })
      .where(eq(orders.id, orderId))
    if (status === 'cancelled' || becomesPaid) await releaseLease(tx, orderId)
    if (becomesPaid) await fulfilOrder(tx, orderId, fulfil)
    return { delivered: becomesPaid }
  })
}

/**
 * Deletes an order. Its payments stay, unmatched again, so no received money disappears from the
 * panel; keys already handed out and sent e-mails stay with the buyer; an unsent e-mail is dropped.
 */
export async function deleteOrder(db: Db, orderId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    await releaseLease(tx, orderId)
    await tx.update(payments).set({ orderId: null }).where(eq(payments.orderId, orderId))
    // An e-mail not sent yet goes with its order; a sent one stays with the buyer anyway.
    await tx
      .delete(mailOutbox)
      .where(and(eq(mailOutbox.orderId, orderId), sql`${mailOutbox.status} <> 'sent'`))
    const rows = await tx.delete(orders).where(eq(orders.id, orderId)).returning({ id: orders.id })
    return rows.length > 0
  })
}

function toAdminPayment(row: typeof payments.$inferSelect): AdminPayment {
  const whole = row.amountUnits / 1_000_000n
  const fraction = (row.amountUnits % 1_000_000n).toString().padStart(6, '0')
  return {
    id: row.id,
    order_id: row.orderId,
    tx_id: row.txId,
    token: row.token,
    amount: `${whole}.${fraction}`,
    from_address: row.fromAddress,
    to_address: row.toAddress,
    block_timestamp: row.blockTimestamp,
    late: row.late,
    created_at: row.createdAt.toISOString(),
  }
}

export async function orderDetail(db: Db, orderId: string): Promise<AdminOrderDetail | null> {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId))
  if (!row) return null
  const [keys, paymentRows, mails] = await Promise.all([
    keysOfOrder(db, orderId),
    db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(payments.id),
    db.select().from(mailOutbox).where(eq(mailOutbox.orderId, orderId)).orderBy(mailOutbox.id),
  ])
  return {
    success: true,
    order: {
      ...toAdminOrder(row),
      expires_at: row.expiresAt.toISOString(),
      grace_until: row.graceUntil.toISOString(),
      cancelled_at: row.cancelledAt?.toISOString() ?? null,
    },
    keys: keys.map((k) => ({ product_id: k.productId, key: k.key, generated: k.generated })),
    payments: paymentRows.map(toAdminPayment),
    mails: mails.map((m) => ({
      id: m.id,
      kind: m.kind,
      to_email: m.toEmail,
      status: m.status,
      attempts: m.attempts,
      last_error: m.lastError,
      sent_at: m.sentAt?.toISOString() ?? null,
      next_attempt_at: m.nextAttemptAt.toISOString(),
    })),
  }
}

/** Queues the order's e-mails again: the outbox worker sends them on its next pass. */
export async function resendOrderMail(db: Db, orderId: string): Promise<number> {
  const rows = await db
    .update(mailOutbox)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: sql`now()`, lastError: null })
    .where(eq(mailOutbox.orderId, orderId))
    .returning({ id: mailOutbox.id })
  return rows.length
}

export async function listUnmatchedPayments(db: Db): Promise<AdminPayment[]> {
  const rows = await db
    .select()
    .from(payments)
    .where(isNull(payments.orderId))
    .orderBy(desc(payments.createdAt))
    .limit(500)
  return rows.map(toAdminPayment)
}

/**
 * Attaches an unmatched transfer to an order and counts it as received. The status is left to the
 * admin, who sees the amount against the total.
 */
export async function assignPayment(
  db: Db,
  paymentId: number,
  orderId: string,
): Promise<'ok' | 'no_payment' | 'no_order'> {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for('update')
    if (!order) return 'no_order'
    const [payment] = await tx
      .update(payments)
      .set({ orderId })
      .where(and(eq(payments.id, paymentId), isNull(payments.orderId)))
      .returning()
    if (!payment) return 'no_payment'
    await tx
      .update(orders)
      .set(
        payment.token === 'USDT'
          ? {
              amountReceivedUnits: sql`${orders.amountReceivedUnits} + ${payment.amountUnits}`,
              updatedAt: new Date(),
            }
          : { trxReceivedSun: sql`${orders.trxReceivedSun} + ${payment.amountUnits}`, updatedAt: new Date() },
      )
      .where(eq(orders.id, orderId))
    return 'ok'
  })
}
