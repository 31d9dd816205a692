import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { AdminOrderStatus } from '../../shared/admin'
import { isValidTronAddress } from '../../shared/tron-address'
import type { Db } from '../db/client'
import { orders } from '../db/schema'
import { type OrderRow, orderCountsByStatus } from './orders.repo'

// The orders module's pages of its table for the operator: the admin list (search, status, page or
// keyset beside an order) and the CSV export's keyset pages. The admin side (admin/order-admin.ts)
// shapes them for the wire.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

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
): Promise<{ row: OrderRow; ts: string }[]> {
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

export interface OrdersPageQuery {
  search?: string
  status?: AdminOrderStatus | 'all'
  page: number
  pageSize: number
  afterId?: string
  beforeId?: string
}

/** One page of the admin's order list and the count of all orders the query matches. */
export async function ordersPage(
  db: Db,
  opts: OrdersPageQuery,
): Promise<{ rows: OrderRow[]; totalCount: number }> {
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
  return { rows, totalCount }
}
