import { eq } from 'drizzle-orm'
import { licenseKeys, orders, products } from '../../src/server/db/schema'
import { updateOrderStatus } from '../../src/server/orders/order-admin'
import { addWalletAddresses } from '../../src/server/wallets/wallets.repo'
import { testAddresses } from './test-addresses'
import type { TestApp } from './test-app'

// Licence tests: a product with licence terms, and orders for it paid through the admin's path
// (the one settlement every payment takes), so keys are handed out exactly as in a sale.

export interface BoughtKeys {
  orderId: string
  accessToken: string
  email: string
  keys: string[]
}

export async function licensedProduct(
  t: TestApp,
  terms: { limit: number | null; days: number | null; name?: string },
): Promise<number> {
  const [row] = await t.database.db
    .insert(products)
    .values({
      name: terms.name ?? 'Licensed App',
      description: 'd',
      priceCents: 1000,
      image: '/x.svg',
      features: ['f'],
      licenceActivationLimit: terms.limit,
      licenceValidityDays: terms.days,
    })
    .returning({ id: products.id })
  return row!.id
}

let bought = 0

/** Places an order for `quantity` keys of the product and marks it paid; answers its keys. */
export async function buyKeys(t: TestApp, productId: number, quantity = 1): Promise<BoughtKeys> {
  bought += 1
  await addWalletAddresses(t.database.db, testAddresses(1, `licence-${bought}-${Date.now()}`))
  const email = `buyer${bought}@example.com`
  // Through the app as a buyer's browser places it (not the test helpers, so benchmarks use it too).
  const placed = await t.app.inject({
    method: 'POST',
    url: '/rpc/secure_create_order',
    payload: { p_email: email, p_items: [{ product: { id: productId }, quantity }], p_total: 10 * quantity },
  })
  const body = placed.json() as { success?: boolean; order_id?: string }
  if (body.success !== true) throw new Error(`order refused: ${placed.body}`)
  const orderId = body.order_id as string
  const paid = await updateOrderStatus(t.database.db, orderId, 'paid', t.app.services.rules)
  if (paid.kind !== 'ok') throw new Error(`could not pay ${orderId}`)
  const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId))
  const keys = await t.database.db
    .select({ key: licenseKeys.key })
    .from(licenseKeys)
    .where(eq(licenseKeys.orderId, orderId))
    .orderBy(licenseKeys.id)
  return { orderId, accessToken: order!.accessToken!, email, keys: keys.map((k) => k.key) }
}
