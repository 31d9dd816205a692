import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buyKeys, licensedProduct } from '../../../tests/support/licence-fixture'
import { createTestApp, type TestApp } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { licenseKeys } from '../db/schema'
import { updateOrderStatus } from '../orders/order-admin'
import { disableKeysOfOrder, enableKeysOfOrder } from './licence-state'

describe.each(engines)('licence terms and the order switch on %s', (engine) => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(engine)
  })
  afterAll(() => t.close())

  const keyRows = (orderId: string) =>
    t.database.db.select().from(licenseKeys).where(eq(licenseKeys.orderId, orderId)).orderBy(licenseKeys.id)

  it('a sold key gets its product terms: the limit, and an expiry the validity days after the sale', async () => {
    const productId = await licensedProduct(t, { limit: 3, days: 30 })
    const { orderId } = await buyKeys(t, productId, 2)
    const rows = await keyRows(orderId)
    expect(rows).toHaveLength(2)
    for (const row of rows) {
      expect(row.activationLimit).toBe(3)
      const days = (row.expiresAt!.getTime() - row.assignedAt!.getTime()) / 86_400_000
      expect(days).toBe(30)
    }
    const unlimited = await licensedProduct(t, { limit: null, days: null })
    const [free] = await keyRows((await buyKeys(t, unlimited)).orderId)
    expect(free).toMatchObject({ activationLimit: null, expiresAt: null, termsSet: true })
  })

  it('cancelling a paid order disables its keys; reopening enables them; a refund reason survives reopening', async () => {
    const productId = await licensedProduct(t, { limit: 1, days: null })
    const { orderId } = await buyKeys(t, productId)
    const rules = t.app.services.rules
    await updateOrderStatus(t.database.db, orderId, 'cancelled', rules)
    expect((await keyRows(orderId))[0]!.orderDisabledReason).toBe('cancelled')
    await updateOrderStatus(t.database.db, orderId, 'paid', rules)
    expect((await keyRows(orderId))[0]!.orderDisabledReason).toBeNull()

    expect(await t.database.db.transaction((tx) => disableKeysOfOrder(tx, orderId, 'refunded'))).toBe(1)
    // Once disabled, the first reason stays; the other reason's inverse clears nothing.
    expect(await t.database.db.transaction((tx) => disableKeysOfOrder(tx, orderId, 'cancelled'))).toBe(0)
    expect(await t.database.db.transaction((tx) => enableKeysOfOrder(tx, orderId, 'cancelled'))).toBe(0)
    expect((await keyRows(orderId))[0]!.orderDisabledReason).toBe('refunded')
    expect(await t.database.db.transaction((tx) => enableKeysOfOrder(tx, orderId, 'refunded'))).toBe(1)
    expect((await keyRows(orderId))[0]!.orderDisabledReason).toBeNull()
  })
})
