import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { licenseKeys } from '../db/schema'

export const MAX_KEY_LENGTH = 500

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
