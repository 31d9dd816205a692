import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { AdminOrder, AdminOrderDetail, AdminOrderStatus, FetchOrdersAnswer } from '../../shared/admin'
import { adminMessages } from '../../shared/admin'
import { centsToDollars, microsToCents } from '../../shared/money'
import { isValidTronAddress } from '../../shared/tron-address'
import { formatSun, receivedUsdMicros } from '../../shared/trx'
import type { Db } from '../db/client'
import { orders } from '../db/schema'
import { dropUnsentMail, mailsOfOrder } from '../delivery/order-mail.repo'
import { keysOfOrder } from '../keys/key-stock'
import { releaseReservation } from '../keys/reservation'
import { detachOrderPayments, heldOrderIds } from '../payments/ledger'
import { paymentsOfOrder } from '../payments/payment-admin'
import type { PaymentRules } from '../payments/payment-rules'
import { settleOrder } from '../payments/settle-order'
import { confirmingAmounts } from '../payments/sightings'
import { releaseAddress } from '../wallets/wallets.repo'
import {
  cancelOrder,
  deleteOrderRow,
  lockOrder,
  orderCountsByStatus,
  orderItemsOnWire,
  reopenOrder,
  setOrderStatus,
} from './orders.repo'

// The operator's side of the orders module: the admin's order list (search, status, page), an
// order's detail, and the workflows that change an order by hand (a status change, a deletion),
// each through the modules that own the other parts (settlement, addresses, keys, ledger, mail).

type OrderRow = typeof orders.$inferSelect

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function toAdminOrder(
  row: OrderRow,
  held: ReadonlySet<string>,
  confirming: ReadonlyMap<string, number> = new Map(),
): AdminOrder {
  const received = receivedUsdMicros(row.amountReceivedUnits, row.trxReceivedSun, row.trxRateE8)
  const receivedCents = microsToCents(received)
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    email: row.email,
    items: orderItemsOnWire(row.items),
    total: centsToDollars(row.totalCents),
    wallet_address: row.walletAddress,
    status: row.status,
    amount_received: centsToDollars(receivedCents),
    trx_amount: row.trxAmountSun !== null ? formatSun(row.trxAmountSun) : null,
    trx_received: formatSun(row.trxReceivedSun),
    paid_at: row.paidAt?.toISOString() ?? null,
    tx_hash: row.txHash,
    chain: row.chain,
    token: row.token,
    late: row.late,
    underpaid: row.status === 'pending' && receivedCents > 0 && receivedCents < row.totalCents,
    held: held.has(row.id),
    discount_code: row.discountCode,
    discount: centsToDollars(row.discountCents),
    confirming: confirming.get(row.id) ?? null,
  }
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`)

export interface ExportOrdersFilter {
  status?: 'all' | AdminOrderStatus
  search?: string
}

/** Where the last page of an export ended: its last row's created_at (as PostgreSQL prints it) and id. */
export interface ExportCursor {
  ts: string
  id: string
}

/** One keyset page of the orders CSV export, newest first, after `cursor`. */
export async function exportOrdersPage(
  db: Db,
  filter: ExportOrdersFilter,
  cursor: ExportCursor | null,
  limit: number,
): Promise<{ row: typeof orders.$inferSelect; ts: string }[]> {
  const conditions: SQL[] = []
  if (filter.status && filter.status !== 'all') conditions.push(eq(orders.status, filter.status))
  if (filter.search) conditions.push(searchCondition(filter.search))
  if (cursor) {
    // A row comparison: the (created_at, id) and (status, created_at, id) indexes serve it.
    conditions.push(
      sql`(${orders.createdAt}, ${orders.id}) < (${cursor.ts}::timestamptz, ${cursor.id}::uuid)`,
    )
  }
  return db
    .select({ row: orders, ts: sql<string>`${orders.createdAt}::text` })
    .from(orders)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit)
}

/**
 * Search: a whole order id or a whole TRON address is an exact, indexed match; anything else is a
 * case-insensitive substring of the id, the e-mail or the address.
 */
export function searchCondition(search: string): SQL {
  const lower = search.toLowerCase()
  if (UUID.test(search)) return eq(orders.id, lower)
  if (isValidTronAddress(search)) return eq(orders.walletAddress, search)
  const like = `%${escapeLike(lower)}%`
  // The expression of the trigram index orders_search_trgm_idx (drizzle/0004_admin_search.sql).
  return sql`lower(${orders.id}::text || ' ' || ${orders.email} || ' ' || ${orders.walletAddress}) like ${like}`
}

/** Orders in the list's order: newest first, the id breaking ties (orders_created_idx, orders_status_created_idx). */
const newestFirst = [desc(orders.createdAt), desc(orders.id)]

/**
 * The page of orders after (`after`) or before (`before`) the given order in the list's order, read
 * from that order's place in the index however deep it is (keyset). Undefined when the order is gone.
 */
async function pageBeside(
  db: Db,
  where: SQL | undefined,
  edge: { after?: string; before?: string },
  pageSize: number,
): Promise<OrderRow[] | undefined> {
  const id = (edge.after ?? edge.before) as string
  const [found] = await db
    .select({ ts: sql<string>`${orders.createdAt}::text` })
    .from(orders)
    .where(eq(orders.id, id))
  if (!found) return undefined
  // A row comparison on (created_at, id), which the indexes above serve as a range; the time is
  // passed as PostgreSQL's own text of it, so no microsecond is lost.
  const beside = edge.after
    ? sql`(${orders.createdAt}, ${orders.id}) < (${found.ts}::timestamptz, ${id}::uuid)`
    : sql`(${orders.createdAt}, ${orders.id}) > (${found.ts}::timestamptz, ${id}::uuid)`
  const rows = await db
    .select()
    .from(orders)
    .where(where ? and(where, beside) : beside)
    .orderBy(...(edge.after ? newestFirst : [asc(orders.createdAt), asc(orders.id)]))
    .limit(pageSize)
  return edge.after ? rows : rows.reverse()
}

/**
 * A page counted from the start. Deep pages skip their offset in the ids alone (an index-only scan
 * where the visibility map allows), then read the page's rows by id, instead of reading and
 * dropping every skipped row.
 */
async function pageByNumber(db: Db, where: SQL | undefined, page: number, pageSize: number) {
  if (page === 1)
    return db
      .select()
      .from(orders)
      .where(where)
      .orderBy(...newestFirst)
      .limit(pageSize)
  const ids = db
    .select({ id: orders.id })
    .from(orders)
    .where(where)
    .orderBy(...newestFirst)
    .limit(pageSize)
    .offset((page - 1) * pageSize)
  return db
    .select()
    .from(orders)
    .where(inArray(orders.id, ids))
    .orderBy(...newestFirst)
}

/**
 * Without a search the total comes from the per-status counters: counting a million rows is not an
 * answer an admin should wait for.
 */
async function countedByStatus(db: Db, status: AdminOrderStatus | 'all' | undefined): Promise<number> {
  const counts = await orderCountsByStatus(db)
  return status && status !== 'all'
    ? (counts.get(status) ?? 0)
    : [...counts.values()].reduce((a, b) => a + b, 0)
}

async function countOrders(db: Db, where: SQL | undefined): Promise<number> {
  const [counted] = await db.select({ n: sql<number>`count(*)::int` }).from(orders).where(where)
  return counted?.n ?? 0
}

/**
 * A search's page and its total in one statement: the matches are found (trigram index) and sorted
 * once, and counted on the way, instead of being found again by a second count.
 */
async function searchPage(
  db: Db,
  where: SQL | undefined,
  page: number,
  pageSize: number,
): Promise<[OrderRow[], number]> {
  const found = await db
    .select({ row: orders, total: sql<number>`(count(*) over ())::int` })
    .from(orders)
    .where(where)
    .orderBy(...newestFirst)
    .limit(pageSize)
    .offset((page - 1) * pageSize)
  // A page past the last match has no row to carry the total.
  const total = found[0] ? Number(found[0].total) : page > 1 ? await countOrders(db, where) : 0
  return [found.map((f) => f.row), total]
}

export async function listOrders(
  db: Db,
  opts: {
    search?: string
    status?: AdminOrderStatus | 'all'
    page: number
    pageSize: number
    afterId?: string
    beforeId?: string
  },
): Promise<FetchOrdersAnswer> {
  const conditions: SQL[] = []
  if (opts.status && opts.status !== 'all') conditions.push(eq(orders.status, opts.status))
  if (opts.search) conditions.push(searchCondition(opts.search))
  const where = conditions.length ? and(...conditions) : undefined
  const keyset = Boolean(opts.afterId || opts.beforeId)
  const [rows, totalCount] =
    opts.search && !keyset
      ? await searchPage(db, where, opts.page, opts.pageSize)
      : await Promise.all([
          (async () =>
            (keyset &&
              (await pageBeside(db, where, { after: opts.afterId, before: opts.beforeId }, opts.pageSize))) ||
            pageByNumber(db, where, opts.page, opts.pageSize))(),
          opts.search ? countOrders(db, where) : countedByStatus(db, opts.status),
        ])
  const held = await heldOrderIds(
    db,
    rows.map((r) => r.id),
  )
  const confirming = await confirmingAmounts(db, rows)
  return {
    success: true,
    orders: rows.map((r) => toAdminOrder(r, held, confirming)),
    total_count: totalCount,
    page: opts.page,
    page_size: opts.pageSize,
  }
}

export type StatusChangeResult =
  | { kind: 'ok'; delivered: boolean }
  | { kind: 'not_found' }
  | { kind: 'refused'; error: string }

/**
 * Any status to any other, through the modules that own each part. Paid or completed by hand goes
 * through the one settlement path (token, keys, e-mail once; a paid order keeps its token);
 * cancelling starts the address's cool-down; pending again gives the order its own address back and
 * a fresh window, or is refused when another order has that address. Never moves a payment.
 */
export async function updateOrderStatus(
  db: Db,
  orderId: string,
  status: AdminOrderStatus,
  rules: PaymentRules,
): Promise<StatusChangeResult> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId)
    if (!order) return { kind: 'not_found' }
    if (order.status === status) return { kind: 'ok', delivered: false }
    const wasPaid = order.status === 'paid' || order.status === 'completed'
    if (status === 'paid' || status === 'completed') {
      let delivered = false
      if (!wasPaid) {
        const settled = await settleOrder(tx, orderId, rules, { manual: true })
        delivered = settled.kind === 'paid'
      }
      if (status === 'completed') await setOrderStatus(tx, orderId, 'completed')
      return { kind: 'ok', delivered }
    }
    if (status === 'cancelled') {
      await cancelOrder(tx, orderId, 'admin', new Date(), rules.cooldownMs)
      return { kind: 'ok', delivered: false }
    }
    const reopened = await reopenOrder(tx, order, rules.windowMs, rules.graceMs)
    if (reopened === 'ok') return { kind: 'ok', delivered: false }
    return {
      kind: 'refused',
      error: reopened === 'in_use' ? adminMessages.reopenAddressInUse : adminMessages.reopenAddressRemoved,
    }
  })
}

/**
 * Deletes an order. Its payments stay in the ledger, unmatched, so no received money disappears
 * from the panel; keys already handed out and sent e-mails stay with the buyer; an unsent e-mail is
 * dropped; a pending order's address starts its cool-down.
 */
export async function deleteOrder(db: Db, orderId: string, rules: PaymentRules): Promise<boolean> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId)
    if (!order) return false
    await releaseAddress(tx, orderId, new Date(), rules.cooldownMs)
    await releaseReservation(tx, orderId)
    await detachOrderPayments(tx, orderId)
    await dropUnsentMail(tx, orderId)
    return deleteOrderRow(tx, orderId)
  })
}

export async function orderDetail(db: Db, orderId: string): Promise<AdminOrderDetail | null> {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId))
  if (!row) return null
  const [keys, orderPayments, mails] = await Promise.all([
    keysOfOrder(db, orderId),
    paymentsOfOrder(db, orderId),
    mailsOfOrder(db, orderId),
  ])
  return {
    success: true,
    order: {
      ...toAdminOrder(row, await heldOrderIds(db, [orderId]), await confirmingAmounts(db, [row])),
      window_ends_at: row.windowEndsAt.toISOString(),
      grace_until: row.graceUntil.toISOString(),
      cancelled_at: row.cancelledAt?.toISOString() ?? null,
    },
    keys: keys.map((k) => ({ product_id: k.productId, key: k.key, generated: k.generated })),
    payments: orderPayments,
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
