import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { type DeliveryMode, licenseKeys, type OrderItemSnapshot, products } from '../db/schema'
import { AppError } from '../errors'
import { refusal } from '../i18n/refusals'

// Stock reservation for stock-only products. Placing an order takes its keys out of the free stock
// (license_keys.reserved_order_id) in the order's own transaction; cancelling or expiring the order
// gives them back; payment turns the reservation into the sale (order_id). A key is therefore never
// promised twice, and a paid stock-only order always has its keys.

export const soldOutMessage = (name: string) => `${name} is sold out`

/** The delivery mode of each product id (products that no longer exist are absent). */
export async function deliveryModesOf(
  tx: Db,
  productIds: readonly number[],
): Promise<Map<number, DeliveryMode>> {
  if (productIds.length === 0) return new Map()
  const rows = await tx
    .select({ id: products.id, mode: products.deliveryMode })
    .from(products)
    .where(inArray(products.id, [...productIds]))
  return new Map(rows.map((r) => [r.id, r.mode]))
}

/**
 * Reserves the keys of new orders' stock-only items; call inside the transaction that inserts the
 * orders. The product rows are locked (in id order, so two transactions never deadlock) while the
 * free keys are counted and taken: concurrent orders for the last keys queue up, and exactly as many
 * succeed as there are keys. Throws a 409 naming the product when its stock does not suffice, which
 * rolls the orders back. Orders with no stock-only item cost one query for all of them.
 */
export async function reserveKeys(
  tx: Db,
  newOrders: readonly { id: string; items: readonly OrderItemSnapshot[] }[],
): Promise<void> {
  const wanted = newOrders.map((order) => {
    const perProduct = new Map<number, { name: string; quantity: number }>()
    for (const item of order.items) {
      const prior = perProduct.get(item.product.id)
      perProduct.set(item.product.id, {
        name: item.product.name,
        quantity: (prior?.quantity ?? 0) + item.quantity,
      })
    }
    return { orderId: order.id, perProduct }
  })
  const productIds = [...new Set(wanted.flatMap((w) => [...w.perProduct.keys()]))]
  if (productIds.length === 0) return
  const stockOnly = await tx
    .select({ id: products.id })
    .from(products)
    .where(and(inArray(products.id, productIds), eq(products.deliveryMode, 'stock_only')))
    .orderBy(asc(products.id))
    .for('update')
  for (const { id } of stockOnly) {
    for (const { orderId, perProduct } of wanted) {
      const line = perProduct.get(id)
      if (!line) continue
      const result = (await tx.execute(sql`
        update ${licenseKeys} set reserved_order_id = ${orderId}
        where id in (
          select id from ${licenseKeys}
          where product_id = ${id} and order_id is null and reserved_order_id is null
          order by id
          limit ${line.quantity}
        )
        returning id`)) as unknown as { rows: unknown[] }
      if (result.rows.length < line.quantity)
        throw new AppError('conflict', refusal('checkout.soldOut', { name: line.name }))
    }
  }
}

/** Returns an unpaid order's reserved keys to the stock (cancelled or expired). Answers how many. */
export async function releaseReservation(tx: Db, orderId: string): Promise<number> {
  const rows = await tx
    .update(licenseKeys)
    .set({ reservedOrderId: null })
    .where(and(eq(licenseKeys.reservedOrderId, orderId), isNull(licenseKeys.orderId)))
    .returning({ id: licenseKeys.id })
  return rows.length
}

/**
 * Payment: the order's reserved keys become its keys. Called by fulfilment, in its transaction;
 * answers the products whose keys they were.
 */
export async function consumeReservation(tx: Db, orderId: string): Promise<number[]> {
  const rows = await tx
    .update(licenseKeys)
    .set({ orderId, assignedAt: new Date() })
    .where(and(eq(licenseKeys.reservedOrderId, orderId), isNull(licenseKeys.orderId)))
    .returning({ productId: licenseKeys.productId })
  return [...new Set(rows.map((r) => r.productId))]
}

/** Stock-only products with no free key left: sold out on the storefront. */
export async function soldOutProductIds(db: Db): Promise<Set<number>> {
  const result = (await db.execute(sql`
    select p.id from ${products} p
    where p.delivery_mode = 'stock_only' and not p.is_free and not exists (
      select 1 from ${licenseKeys} k
      where k.product_id = p.id and k.order_id is null and k.reserved_order_id is null
    )`)) as unknown as { rows: { id: number }[] }
  return new Set(result.rows.map((r) => Number(r.id)))
}
