import { randomBytes } from 'node:crypto'
import { and, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { invoices, orders } from '../db/schema'
import { recordInvoiceCreated } from './invoice-events'

// The invoices table: written in the transaction that places the invoice's order (through the
// orders module's placer, whose `attach` runs here), read with its order beside it. An invoice
// changes nothing of its order: every money rule stays the order's.

export type InvoiceRow = typeof invoices.$inferSelect
export type InvoiceOrderRow = typeof orders.$inferSelect
export type InvoiceInsert = typeof invoices.$inferInsert
export interface InvoiceWithOrder {
  invoice: InvoiceRow
  order: InvoiceOrderRow
}

/** 16 random bytes in base64url (22 characters): the invoice's public id and its page's address. */
export function newInvoiceId(): string {
  return randomBytes(16).toString('base64url')
}

/** An invoice of this seller's order is open already: the retry answers it. */
export class OpenInvoiceExists extends Error {
  constructor(readonly invoiceId: string) {
    super('an invoice for this orderId is open')
  }
}

/**
 * Inside the placing transaction: one seller's order at a time (a transaction-scoped advisory lock
 * on its orderId), and none while an invoice of it is still open, so two retries racing each other
 * never take two addresses. Throws OpenInvoiceExists, which undoes the new order.
 */
export async function insertInvoice(tx: Db, row: typeof invoices.$inferInsert): Promise<void> {
  if (row.externalOrderId) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`invoice ${row.externalOrderId}`}))`)
    const open = await openInvoiceOf(tx, row.externalOrderId)
    if (open) throw new OpenInvoiceExists(open)
  }
  await tx.insert(invoices).values(row)
  await recordInvoiceCreated(tx, { id: row.id, metadata: row.metadata })
}

/** The newest invoice of a seller's order whose order is still open (pending), or null. */
export async function openInvoiceOf(db: Db, externalOrderId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(and(eq(invoices.externalOrderId, externalOrderId), eq(orders.status, 'pending')))
    .orderBy(desc(invoices.createdAt))
    .limit(1)
  return row?.id ?? null
}

/** The newest invoice of a seller's order with its order's status, or null. */
export async function latestInvoiceOf(
  db: Db,
  externalOrderId: string,
): Promise<{ id: string; orderStatus: string } | null> {
  const [row] = await db
    .select({ id: invoices.id, orderStatus: orders.status })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(eq(invoices.externalOrderId, externalOrderId))
    .orderBy(desc(invoices.createdAt))
    .limit(1)
  return row ?? null
}

export async function findInvoice(db: Db, id: string): Promise<InvoiceWithOrder | null> {
  const [row] = await db
    .select({ invoice: invoices, order: orders })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(eq(invoices.id, id))
  return row ?? null
}

/** Whether the shop has any invoice (most have none: their exports ask nothing more). */
export async function anyInvoice(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: invoices.id }).from(invoices).limit(1)
  return row !== undefined
}

/** The seller's order id (metadata.orderId) of each of these orders that is an invoice and has one. */
export async function sellerOrderIds(db: Db, orderIds: readonly string[]): Promise<Map<string, string>> {
  if (orderIds.length === 0) return new Map()
  const rows = await db
    .select({ orderId: invoices.orderId, externalOrderId: invoices.externalOrderId })
    .from(invoices)
    .where(inArray(invoices.orderId, [...orderIds]))
  return new Map(rows.flatMap((r) => (r.externalOrderId ? [[r.orderId, r.externalOrderId] as const] : [])))
}

export async function setInvoiceMarked(db: Db, id: string, marked: 'Invalid' | 'Settled'): Promise<void> {
  await db.update(invoices).set({ marked }).where(eq(invoices.id, id))
}

export interface InvoiceListQuery {
  orderIds?: readonly string[]
  from?: Date
  to?: Date
  /** Rows read at most (newest first). */
  limit: number
  offset: number
}

/** Invoices, newest first, by the seller's order ids and a creation period. */
export async function listInvoices(db: Db, q: InvoiceListQuery): Promise<InvoiceWithOrder[]> {
  const where = and(
    q.orderIds && q.orderIds.length > 0 ? inArray(invoices.externalOrderId, [...q.orderIds]) : undefined,
    q.from ? gte(invoices.createdAt, q.from) : undefined,
    q.to ? lt(invoices.createdAt, q.to) : undefined,
  )
  return db
    .select({ invoice: invoices, order: orders })
    .from(invoices)
    .innerJoin(orders, eq(orders.id, invoices.orderId))
    .where(where)
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(q.limit)
    .offset(q.offset)
}
