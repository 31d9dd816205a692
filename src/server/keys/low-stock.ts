import { inArray, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { type DeliveryMode, productKeyCounts, products } from '../db/schema'
import { loadSettings } from '../settings/settings'

// Low stock, the one rule: the alert, the stock.low webhook, the Stock tab and the sales view all
// ask it. The keys that count are those left to sell: neither handed out nor reserved by a pending
// order (a reserved key is already promised). The threshold is the product's own when it has one,
// else the shop-wide setting for a product that sells from stock only (it sells out); a product
// that generates a key once its stock is gone never runs out, so only a threshold of its own holds
// it. Stock is low when fewer keys are left than the threshold. A product without keys is never low.

export interface StockLevel {
  deliveryMode: DeliveryMode
  /** Keys neither handed out nor reserved. */
  keysLeft: number
  /** The product's own threshold; null: the shop-wide one. */
  productThreshold: number | null
}

/**
 * The threshold a product is held to: its own when set, else the shop's for a stock-only product;
 * null when none holds it (no keys, or keys generated once the stock is gone). 0: never low.
 */
export function lowStockThreshold(
  level: Pick<StockLevel, 'deliveryMode' | 'productThreshold'>,
  shopThreshold: number,
): number | null {
  if (level.deliveryMode === 'none') return null
  if (level.productThreshold !== null) return level.productThreshold
  return level.deliveryMode === 'stock_only' ? shopThreshold : null
}

export function isLowStock(level: StockLevel, shopThreshold: number): boolean {
  const threshold = lowStockThreshold(level, shopThreshold)
  return threshold !== null && level.keysLeft < threshold
}

export interface LowStock {
  productId: number
  keysLeft: number
  threshold: number
}

/** Of these products, those low on stock now (read in the caller's transaction). */
export async function lowStockOf(db: Db, productIds: readonly number[]): Promise<LowStock[]> {
  const ids = [...new Set(productIds)]
  if (ids.length === 0) return []
  const { lowStockThreshold: shop } = await loadSettings(db)
  const [rows, left] = await Promise.all([
    db
      .select({ id: products.id, mode: products.deliveryMode, threshold: products.lowStockThreshold })
      .from(products)
      .where(inArray(products.id, ids)),
    keysLeftOf(db, ids),
  ])
  return rows
    .map((p) => ({
      level: { deliveryMode: p.mode, keysLeft: left.get(p.id) ?? 0, productThreshold: p.threshold },
      id: p.id,
    }))
    .filter(({ level }) => isLowStock(level, shop))
    .map(({ id, level }) => ({
      productId: id,
      keysLeft: level.keysLeft,
      threshold: lowStockThreshold(level, shop) as number,
    }))
    .sort((a, b) => a.productId - b.productId)
}

/** Keys left per product, from the counts the license_keys triggers keep exact. */
async function keysLeftOf(db: Db, ids: readonly number[]): Promise<Map<number, number>> {
  const rows = await db
    .select({
      id: productKeyCounts.productId,
      left: sql<number>`coalesce(sum(${productKeyCounts.keysLeft}), 0)::int`,
    })
    .from(productKeyCounts)
    .where(inArray(productKeyCounts.productId, [...ids]))
    .groupBy(productKeyCounts.productId)
  return new Map(rows.map((r) => [r.id, Number(r.left)]))
}
