import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { testAddresses } from '../../../tests/support/test-addresses'
import { createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { createTestDatabase, engines } from '../../../tests/support/test-db'
import { updateOrderStatus } from '../admin/order-admin'
import { licenseKeys, products } from '../db/schema'
import { expireOrdersBefore } from '../orders/orders.repo'
import { addWalletAddresses } from '../wallets/wallets.repo'
import { countKeyStock, keysOfOrder } from './key-stock'

describe.each(engines)('stock reservation on %s', (engine) => {
  let t: TestApp
  let productId: number
  let mixedId: number

  beforeAll(async () => {
    const database = await createTestDatabase(engine, { poolSize: 20 })
    t = await createTestApp(engine, {}, { database })
    const [p, q] = await t.database.db
      .insert(products)
      .values([
        {
          name: 'Last Keys Pro',
          description: 'd',
          priceCents: 1000,
          image: '/x.svg',
          features: ['f'],
          deliveryMode: 'stock_only',
        },
        {
          name: 'Generated Tool',
          description: 'd',
          priceCents: 500,
          image: '/y.svg',
          features: ['f'],
        },
      ])
      .returning({ id: products.id })
    productId = p!.id
    mixedId = q!.id
  })
  afterAll(() => t.close())

  beforeEach(async () => {
    await t.database.db.execute(sql`delete from orders`)
    await t.database.db.execute(sql`delete from wallet_addresses`)
    await t.database.db.execute(sql`delete from license_keys`)
    await t.database.db.execute(sql`delete from mail_outbox`)
    await t.database.db
      .insert(licenseKeys)
      .values(Array.from({ length: 10 }, (_, i) => ({ productId, key: `LAST-KEY-${i}` })))
  })

  const place = (i: number, quantity = 1, extra: { id: number; quantity: number }[] = []) =>
    rpc(t.app, 'secure_create_order', {
      p_email: `buyer${i}@example.com`,
      p_items: [
        { product: { id: productId }, quantity },
        ...extra.map((e) => ({ product: { id: e.id }, quantity: e.quantity })),
      ],
      p_total: 10 * quantity + extra.reduce((sum, e) => sum + 5 * e.quantity, 0),
    })

  const soldOut = async () => {
    const list = (await rpc(t.app, 'fetch_products')).body.products as { id: number; sold_out?: boolean }[]
    return list.find((p) => p.id === productId)?.sold_out === true
  }

  it('100 concurrent orders for the last 10 keys: exactly 10 succeed, the rest are told it is sold out', async () => {
    await addWalletAddresses(t.database.db, testAddresses(100, 'reserve'))
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => place(i)))
    const ok = answers.filter((a) => a.body.success === true)
    const refused = answers.filter((a) => a.body.success !== true)
    expect(ok).toHaveLength(10)
    expect(refused).toHaveLength(90)
    for (const a of refused)
      expect(a).toMatchObject({ status: 409, body: { error: 'Last Keys Pro is sold out' } })
    const reserved = await t.database.db.execute(
      sql`select count(distinct reserved_order_id)::int as orders, count(*)::int as keys from license_keys where reserved_order_id is not null`,
    )
    expect((reserved as unknown as { rows: unknown[] }).rows[0]).toEqual({ orders: 10, keys: 10 })
    // The refused orders left nothing behind: no order row, no leased address.
    const counted = await t.database.db.execute(sql`select count(*)::int as n from orders`)
    expect((counted as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(10)
    expect(await soldOut()).toBe(true)
    expect((await countKeyStock(t.database.db, [productId])).get(productId) ?? 0).toBe(0)
  })

  it('cancelling or expiring an order returns its keys; a multi-item order that cannot be served reserves nothing', async () => {
    await addWalletAddresses(t.database.db, testAddresses(5, 'release'))
    const a = await place(1, 6)
    const b = await place(2, 4)
    expect(a.body.success && b.body.success).toBe(true)
    expect(await soldOut()).toBe(true)

    expect(
      (
        await rpc(t.app, 'secure_cancel_order', {
          p_order_id: a.body.order_id,
          p_order_secret: a.body.order_secret,
        })
      ).body.success,
    ).toBe(true)
    expect((await countKeyStock(t.database.db, [productId])).get(productId)).toBe(6)
    expect(await soldOut()).toBe(false)

    await t.database.db.execute(
      sql`update orders set window_ends_at = now() - interval '2 minutes', grace_until = now() - interval '1 minute' where id = ${b.body.order_id as string}`,
    )
    // The chain follower expires it once the chain passes its grace end (here: now).
    expect(
      await t.database.db.transaction((tx) =>
        expireOrdersBefore(tx, Date.now(), t.app.services.rules.cooldownMs, 'tron'),
      ),
    ).toContain(b.body.order_id)
    expect((await countKeyStock(t.database.db, [productId])).get(productId)).toBe(10)

    // 11 wanted: refused, and the generated product's line reserves nothing either.
    const c = await place(3, 11, [{ id: mixedId, quantity: 1 }])
    expect(c).toMatchObject({ status: 409, body: { error: 'Last Keys Pro is sold out' } })
    expect((await countKeyStock(t.database.db, [productId])).get(productId)).toBe(10)
  })

  it('payment delivers exactly the reserved keys, once, however often it is confirmed', async () => {
    await addWalletAddresses(t.database.db, testAddresses(3, 'consume'))
    const first = await place(1, 3, [{ id: mixedId, quantity: 1 }])
    const second = await place(2, 2)
    const orderId = first.body.order_id as string
    const reserved = await t.database.db
      .select({ key: licenseKeys.key })
      .from(licenseKeys)
      .where(eq(licenseKeys.reservedOrderId, orderId))
      .orderBy(licenseKeys.id)
    expect(reserved.map((r) => r.key)).toEqual(['LAST-KEY-0', 'LAST-KEY-1', 'LAST-KEY-2'])

    await Promise.all([
      updateOrderStatus(t.database.db, orderId, 'paid', t.app.services.rules),
      updateOrderStatus(t.database.db, orderId, 'paid', t.app.services.rules),
      updateOrderStatus(t.database.db, orderId, 'completed', t.app.services.rules),
    ])
    const keys = await keysOfOrder(t.database.db, orderId)
    expect(keys.filter((k) => k.productId === productId).map((k) => k.key)).toEqual([
      'LAST-KEY-0',
      'LAST-KEY-1',
      'LAST-KEY-2',
    ])
    expect(keys.filter((k) => k.productId === mixedId && k.generated)).toHaveLength(1)
    // The other pending order keeps its reservation; the stock left is what neither holds.
    expect((await countKeyStock(t.database.db, [productId])).get(productId)).toBe(5)
    const secondKeys = await t.database.db
      .select({ key: licenseKeys.key })
      .from(licenseKeys)
      .where(eq(licenseKeys.reservedOrderId, second.body.order_id as string))
    expect(secondKeys).toHaveLength(2)
  })

  it('a no-key product delivers no key', async () => {
    await t.database.db.update(products).set({ deliveryMode: 'none' }).where(eq(products.id, mixedId))
    try {
      await addWalletAddresses(t.database.db, testAddresses(1, 'nokey'))
      const answer = await rpc(t.app, 'secure_create_order', {
        p_email: 'buyer@example.com',
        p_items: [{ product: { id: mixedId }, quantity: 2 }],
        p_total: 10,
      })
      await updateOrderStatus(t.database.db, answer.body.order_id as string, 'paid', t.app.services.rules)
      expect(await keysOfOrder(t.database.db, answer.body.order_id as string)).toEqual([])
    } finally {
      await t.database.db
        .update(products)
        .set({ deliveryMode: 'stock_then_generated' })
        .where(eq(products.id, mixedId))
    }
  })
})
