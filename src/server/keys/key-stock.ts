import { randomBytes } from 'node:crypto'
import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { licenseKeys } from '../db/schema'

/** One key per line, trimmed; blank lines and repeats dropped. */
export function parseKeyLines(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== ''),
    ),
  ]
}

/**
 * Adds keys to a product's stock. A key already in the table (for any product) is skipped, so a
 * key can never be handed out twice. Answers how many were new.
 */
export async function addKeyStock(db: Db, productId: number, keys: readonly string[]): Promise<number> {
  const unique = [...new Set(keys.map((key) => key.trim()).filter((key) => key !== ''))]
  let added = 0
  for (let i = 0; i < unique.length; i += 1000) {
    const rows = await db
      .insert(licenseKeys)
      .values(unique.slice(i, i + 1000).map((key) => ({ productId, key })))
      .onConflictDoNothing({ target: licenseKeys.key })
      .returning({ id: licenseKeys.id })
    added += rows.length
  }
  return added
}

/** Keys left per product id: neither handed out nor reserved by a pending order. */
export async function countKeyStock(db: Db, productIds?: readonly number[]): Promise<Map<number, number>> {
  const free = and(isNull(licenseKeys.orderId), isNull(licenseKeys.reservedOrderId))
  const where = productIds ? and(free, inArray(licenseKeys.productId, [...productIds])) : free
  const rows = await db
    .select({ productId: licenseKeys.productId, left: sql<number>`count(*)::int` })
    .from(licenseKeys)
    .where(where)
    .groupBy(licenseKeys.productId)
  return new Map(rows.map((row) => [row.productId, row.left]))
}

/** The keys handed out to one order, oldest first. */
export async function keysOfOrder(db: Db, orderId: string) {
  return db
    .select({ productId: licenseKeys.productId, key: licenseKeys.key, generated: licenseKeys.generated })
    .from(licenseKeys)
    .where(eq(licenseKeys.orderId, orderId))
    .orderBy(licenseKeys.id)
}

// 32 symbols without 0/O and 1/I, so a key read aloud or typed is unambiguous; 20 of them = 100 bits.
const KEY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

/** XXXXX-XXXXX-XXXXX-XXXXX from a cryptographic random source. */
export function generateLicenseKey(): string {
  const bytes = randomBytes(20)
  let key = ''
  for (let i = 0; i < 20; i++) {
    if (i > 0 && i % 5 === 0) key += '-'
    key += KEY_ALPHABET[(bytes[i] as number) & 31]
  }
  return key
}

/**
 * Takes `count` unused, unreserved keys of a product for an order (called by delivery in the paying
 * transaction); concurrent orders skip each other's rows.
 */
export async function takeStockKeys(
  tx: Db,
  productId: number,
  orderId: string,
  count: number,
): Promise<string[]> {
  const result = (await tx.execute(sql`
    update ${licenseKeys} set order_id = ${orderId}, assigned_at = now()
    where id in (
      select id from ${licenseKeys}
      where product_id = ${productId} and order_id is null and reserved_order_id is null
      order by id
      limit ${count}
      for update skip locked
    )
    returning key, id`)) as unknown as { rows: { key: string; id: number }[] }
  return result.rows.sort((a, b) => a.id - b.id).map((r) => r.key)
}

export async function generateKeys(
  tx: Db,
  productId: number,
  orderId: string,
  count: number,
): Promise<string[]> {
  const keys: string[] = []
  while (keys.length < count) {
    const key = generateLicenseKey()
    const inserted = await tx
      .insert(licenseKeys)
      .values({ productId, key, orderId, generated: true, assignedAt: new Date() })
      .onConflictDoNothing({ target: licenseKeys.key })
      .returning({ key: licenseKeys.key })
    // A collision in 100 bits does not happen in practice; if it did, the next draw differs.
    if (inserted[0]) keys.push(inserted[0].key)
  }
  return keys
}
