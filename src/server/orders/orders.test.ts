import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { testAddresses } from '../../../tests/support/payment-fixture'
import { createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { createTestDatabase, engines } from '../../../tests/support/test-db'
import { openDatabase } from '../db/client'
import { orders } from '../db/schema'
import { seedOnce } from '../db/seed'
import { addWalletAddresses, listWalletAddresses } from '../wallets/wallets.repo'

const unavailable = 'Payment system is temporarily unavailable. Please try again later.'

async function count(t: TestApp, table: 'orders' | 'leases'): Promise<number> {
  const query =
    table === 'orders'
      ? sql`select count(*)::int as n from orders`
      : sql`select count(*)::int as n from wallet_addresses where leased_order_id is not null`
  const result = (await t.database.db.execute(query)) as unknown as { rows: { n: number }[] }
  return result.rows[0]?.n ?? 0
}

// Every request in these tests comes from one client; the limits have their own tests
// (checkout-limits.test.ts).
const withoutLimits = {
  CHECKOUT_PENDING_PER_CLIENT: '100000',
  CHECKOUT_PENDING_PER_EMAIL: '100000',
  CHECKOUT_CREATIONS_PER_MINUTE: '100000',
  CHECKOUT_HELD_PER_NETWORK: '100000',
  CHECKOUT_RESERVE_PERCENT: '0',
}

/** The seeded catalogue's paid products and its free one. */
async function catalogOf(t: TestApp) {
  const products = (await rpc(t.app, 'fetch_products')).body.products as {
    id: number
    price: number
    is_free: boolean
  }[]
  return {
    paid: products.filter((p) => !p.is_free && p.price > 0),
    free: products.find((p) => p.is_free) as { id: number },
  }
}

describe.each(engines)('checkout on %s', (engine) => {
  let t: TestApp
  let paid: { id: number; price: number }[]
  let free: { id: number }

  beforeAll(async () => {
    const database = await createTestDatabase(engine, { poolSize: 20 })
    await seedOnce(database.db)
    t = await createTestApp(
      engine,
      {
        PAYMENT_WINDOW_MINUTES: '30',
        LATE_PAYMENT_GRACE_MINUTES: '60',
        ...withoutLimits,
      },
      { database },
    )
    ;({ paid, free } = await catalogOf(t))
  })
  afterAll(() => t.close())

  beforeEach(async () => {
    await t.database.db.execute(sql`delete from orders`)
    await t.database.db.execute(sql`delete from wallet_addresses`)
  })

  const order = (overrides: Record<string, unknown> = {}) => {
    const [a, b] = paid as [{ id: number; price: number }, { id: number; price: number }]
    return {
      p_email: 'buyer@example.com',
      p_items: [
        { product: { id: a.id, name: 'shown name', price: a.price }, quantity: 2 },
        { product: { id: b.id }, quantity: 1 },
      ],
      p_total: Math.round((a.price * 2 + b.price) * 100) / 100,
      ...overrides,
    }
  }

  it('secure_get_wallet_address offers a free address, and the unavailable answer when none is', async () => {
    expect((await rpc(t.app, 'secure_get_wallet_address')).body).toEqual({
      success: false,
      error: unavailable,
    })
    const [address] = testAddresses(1)
    await addWalletAddresses(t.database.db, [address as string])
    expect((await rpc(t.app, 'secure_get_wallet_address')).body).toEqual({
      success: true,
      wallet_address: address,
    })
  })

  it('creates a pending order with a snapshot, the server total and a leased address', async () => {
    const pool = testAddresses(2)
    await addWalletAddresses(t.database.db, pool)
    const before = Date.now()
    const { status, body } = await rpc(t.app, 'secure_create_order', order({ p_wallet_address: pool[1] }))
    expect(status).toBe(200)
    expect(body).toMatchObject({ success: true, wallet_address: pool[1] })
    expect(body.order_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    const windowEnd = Date.parse(body.window_ends_at as string)
    expect(windowEnd - before).toBeGreaterThanOrEqual(30 * 60_000 - 1000)
    expect(windowEnd - before).toBeLessThanOrEqual(30 * 60_000 + 5000)

    const result = (await t.database.db.execute(
      sql`select * from orders where id = ${body.order_id as string}`,
    )) as unknown as { rows: Record<string, unknown>[] }
    const row = result.rows[0] as Record<string, unknown>
    const [a, b] = paid as [{ id: number; price: number; name?: string }, { id: number; price: number }]
    expect(row.status).toBe('pending')
    expect(row.email).toBe('buyer@example.com')
    expect(Number(row.total_cents)).toBe(Math.round((a.price * 2 + b.price) * 100))
    expect(row.wallet_address).toBe(pool[1])
    const items = row.items as { product: Record<string, unknown>; quantity: number }[]
    // The snapshot takes the database's name and price, never the ones the browser sent; the price
    // is integer cents at rest, never a binary float.
    expect(items[0]).toMatchObject({
      product: { id: a.id, price_cents: Math.round(a.price * 100) },
      quantity: 2,
    })
    expect(items[0]?.product).not.toHaveProperty('price')
    expect(Number.isInteger(items[0]?.product.price_cents)).toBe(true)
    expect(items[0]?.product.name).not.toBe('shown name')
    // The order holds the address until it ends (paid, cancelled, or expired by the chain follower).
    const leases = await listWalletAddresses(t.database.db)
    const leased = leases.find((l) => l.address === pool[1])
    expect(leased).toMatchObject({ state: 'leased', leasedOrderId: body.order_id })
    const [history] = (
      (await t.database.db.execute(
        sql`select * from address_leases where order_id = ${body.order_id as string}`,
      )) as unknown as { rows: Record<string, unknown>[] }
    ).rows
    expect(history).toMatchObject({ address: pool[1], ended_at: null })
    expect(new Date(String(history?.started_at)).getTime()).toBeLessThanOrEqual(windowEnd)

    // The address is no longer offered; the other one is.
    expect((await rpc(t.app, 'secure_get_wallet_address')).body).toEqual({
      success: true,
      wallet_address: pool[0],
    })
  })

  it('locks the TRX amount at the rate of the moment (fixed 0.25 in tests)', async () => {
    await addWalletAddresses(t.database.db, testAddresses(1))
    const payload = order()
    const { body } = await rpc(t.app, 'secure_create_order', payload)
    const cents = Math.round(payload.p_total * 100)
    expect(body).toMatchObject({ success: true, trx_rate: '0.25' })
    // total / 0.25 TRX, rounded up to 0.01 TRX
    expect(Number(body.trx_amount)).toBeCloseTo(Math.ceil(cents * 4) / 100, 6)
    const result = (await t.database.db.execute(
      sql`select native_amount_units::text as sun, native_rate_e8::text as rate from orders`,
    )) as unknown as { rows: { sun: string; rate: string }[] }
    expect(result.rows[0]).toEqual({ sun: String(Math.ceil(cents * 4) * 10_000), rate: '25000000' })
  })

  it('leases another address when the requested one was taken meanwhile', async () => {
    const pool = testAddresses(2)
    await addWalletAddresses(t.database.db, pool)
    const first = await rpc(t.app, 'secure_create_order', order({ p_wallet_address: pool[0] }))
    const second = await rpc(t.app, 'secure_create_order', order({ p_wallet_address: pool[0] }))
    expect(first.body.wallet_address).toBe(pool[0])
    expect(second.body).toMatchObject({ success: true, wallet_address: pool[1] })
    const third = await rpc(t.app, 'secure_create_order', order({ p_wallet_address: pool[0] }))
    expect(third.body).toEqual({ success: false, error: unavailable })
    expect(await count(t, 'orders')).toBe(2)
  })

  it('a wrong, zero or negative total is refused with "Invalid order total"', async () => {
    await addWalletAddresses(t.database.db, testAddresses(1))
    const good = order().p_total
    for (const p_total of [good + 0.01, good - 1, 0, -good, 1e12]) {
      const { status, body } = await rpc(t.app, 'secure_create_order', order({ p_total }))
      expect(status, String(p_total)).toBe(200)
      expect(body).toEqual({ success: false, error: 'Invalid order total' })
    }
    expect(await count(t, 'orders')).toBe(0)
    expect(await count(t, 'leases')).toBe(0)
  })

  it('bad input gets a clear 400 and leaves no order and no lease', async () => {
    await addWalletAddresses(t.database.db, testAddresses(3))
    const [a] = paid as [{ id: number; price: number }]
    const line = (quantity: unknown, id: unknown = a.id) => ({ p_items: [{ product: { id }, quantity }] })
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['no @', { p_email: 'buyer.example.com' }, /p_email: Please enter a valid email/],
      ['spaces', { p_email: 'buyer @example.com' }, /p_email/],
      ['no domain dot', { p_email: 'buyer@example' }, /p_email/],
      ['empty e-mail', { p_email: '' }, /p_email/],
      ['e-mail as number', { p_email: 42 }, /p_email/],
      ['huge e-mail', { p_email: `${'a'.repeat(5000)}@example.com` }, /p_email: must be at most 254/],
      ['zero quantity', line(0), /quantity: must be at least 1/],
      ['negative quantity', line(-3), /quantity: must be at least 1/],
      ['fractional quantity', line(1.5), /quantity: must be a whole number/],
      ['huge quantity', line(1e9), /quantity: must be at most 100/],
      ['string quantity', line('2'), /quantity/],
      ['null quantity', line(null), /quantity/],
      ['unknown product', line(1, 999_999), /unknown product id\(s\) 999999/],
      ['negative product id', line(1, -1), /product\.id/],
      ['string product id', line(1, '1; drop table orders'), /product\.id/],
      ['free product', line(1, free.id), /is free/],
      ['no lines', { p_items: [] }, /the cart is empty/],
      ['items not an array', { p_items: 'everything' }, /p_items/],
      [
        '10,000 lines',
        { p_items: Array.from({ length: 10_000 }, () => ({ product: { id: a.id }, quantity: 1 })) },
        /at most 100 lines/,
      ],
      [
        'repeated lines beyond 100 units',
        {
          p_items: Array.from({ length: 3 }, () => ({ product: { id: a.id }, quantity: 50 })),
          p_total: a.price * 150,
        },
        /at most 100 of/,
      ],
      ['total as string', { p_total: '10.00' }, /p_total/],
      ['total as null (NaN in JSON)', { p_total: null }, /p_total/],
      ['missing total', { p_total: undefined }, /p_total/],
      ['oversized address', { p_wallet_address: 'T'.repeat(10_000) }, /p_wallet_address/],
      ['oversized idempotency key', { p_idempotency_key: 'k'.repeat(1000) }, /p_idempotency_key/],
      ['unknown field', { p_discount: 100 }, /unknown field.*p_discount/],
    ]
    for (const [name, overrides, error] of cases) {
      const payload = order(overrides)
      if ('p_total' in overrides && overrides.p_total === undefined)
        delete (payload as Record<string, unknown>).p_total
      const { status, body } = await rpc(t.app, 'secure_create_order', payload)
      expect(status, name).toBe(400)
      expect(body.success, name).toBe(false)
      expect(body.error, name).toMatch(error)
    }
    // NaN cannot be written in JSON; the raw token is a JSON error, not a 500.
    const raw = await t.app.inject({
      method: 'POST',
      url: '/rpc/secure_create_order',
      headers: { 'content-type': 'application/json' },
      payload: '{"p_email":"a@b.co","p_items":[],"p_total":NaN}',
    })
    expect(raw.statusCode).toBe(400)
    expect(await count(t, 'orders')).toBe(0)
    expect(await count(t, 'leases')).toBe(0)
  })

  it('is idempotent under the client key: a retried request answers the same order', async () => {
    await addWalletAddresses(t.database.db, testAddresses(5))
    const key = randomBytes(12).toString('hex')
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => rpc(t.app, 'secure_create_order', order({ p_idempotency_key: key }))),
    )
    const ids = new Set(answers.map((a) => a.body.order_id))
    expect(answers.every((a) => a.status === 200 && a.body.success === true)).toBe(true)
    expect(ids.size).toBe(1)
    expect(await count(t, 'orders')).toBe(1)
    expect(await count(t, 'leases')).toBe(1)
    // Every answer carries the secret, and a later retry answers it again: each one the buyer saw
    // reads the full status, and the first still cancels after the retry.
    const first = answers[0]?.body.order_secret as string
    expect(first).toMatch(/^[\w-]{43}$/)
    expect(new Set(answers.map((a) => a.body.order_secret))).toEqual(new Set([first]))
    const retry = await rpc(t.app, 'secure_create_order', order({ p_idempotency_key: key }))
    expect(retry.body).toMatchObject({ success: true, order_id: answers[0]?.body.order_id })
    for (const secret of [first, retry.body.order_secret]) {
      const status = await rpc(t.app, 'secure_get_order_status', {
        p_order_id: retry.body.order_id,
        p_order_secret: secret,
      })
      expect(status.body).toMatchObject({ success: true, status: 'pending', total: order().p_total })
    }
    // The key is kept only as a hash, so the database alone cannot derive the secret.
    const stored = await t.database.db.select({ hash: orders.idempotencyKeyHash }).from(orders)
    expect(stored).toEqual([{ hash: createHash('sha256').update(key).digest('hex') }])
    const cancelled = await rpc(t.app, 'secure_cancel_order', {
      p_order_id: retry.body.order_id,
      p_order_secret: first,
    })
    expect(cancelled.body).toMatchObject({ success: true })
    // The same key with another e-mail is a conflict, not a second order.
    const clash = await rpc(
      t.app,
      'secure_create_order',
      order({ p_idempotency_key: key, p_email: 'x@example.com' }),
    )
    expect(clash.status).toBe(409)
    expect(await count(t, 'orders')).toBe(1)
  })

  it('a retry of an order whose secret was random (placed before secrets were derived) answers a working one', async () => {
    await addWalletAddresses(t.database.db, testAddresses(1))
    const key = randomBytes(12).toString('hex')
    const placed = await rpc(t.app, 'secure_create_order', order({ p_idempotency_key: key }))
    const randomHash = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('hex')
    await t.database.db.update(orders).set({ secretHash: randomHash })
    const retry = await rpc(t.app, 'secure_create_order', order({ p_idempotency_key: key }))
    expect(retry.body.order_id).toBe(placed.body.order_id)
    const status = await rpc(t.app, 'secure_get_order_status', {
      p_order_id: retry.body.order_id,
      p_order_secret: retry.body.order_secret,
    })
    expect(status.body).toMatchObject({ success: true, status: 'pending' })
  })

  it('cancelling ends the lease; the address rests for its cool-down; a cancelled order cannot be cancelled again', async () => {
    const [address] = testAddresses(1)
    await addWalletAddresses(t.database.db, [address as string])
    const created = await rpc(t.app, 'secure_create_order', order())
    expect((await rpc(t.app, 'secure_get_wallet_address')).body.success).toBe(false)
    // The order id alone (what a buyer shows support) cannot cancel it; its secret can.
    const byId = await rpc(t.app, 'secure_cancel_order', { p_order_id: created.body.order_id })
    expect(byId.body.success).toBe(false)
    const cancelled = await rpc(t.app, 'secure_cancel_order', {
      p_order_id: created.body.order_id,
      p_order_secret: created.body.order_secret,
    })
    expect(cancelled.body).toEqual({ success: true })
    expect(await count(t, 'leases')).toBe(0)
    // A transfer the buyer sends anyway, during the cool-down, cannot be credited to a new buyer.
    expect((await rpc(t.app, 'secure_get_wallet_address')).body.success).toBe(false)
    await t.database.db.execute(sql`update wallet_addresses set cooldown_until = now() - interval '1 second'`)
    expect((await rpc(t.app, 'secure_get_wallet_address')).body).toEqual({
      success: true,
      wallet_address: address,
    })
    const again = await rpc(t.app, 'secure_cancel_order', { p_order_id: created.body.order_id })
    expect(again.body.success).toBe(false)
    const malformed = await rpc(t.app, 'secure_cancel_order', { p_order_id: "1' or '1'='1" })
    expect(malformed.status).toBe(400)
  })

  it('an address stays with its order until the order ends and its cool-down has passed', async () => {
    const [address] = testAddresses(1)
    await addWalletAddresses(t.database.db, [address as string])
    const first = await rpc(t.app, 'secure_create_order', order())
    expect(first.body.success).toBe(true)
    expect((await rpc(t.app, 'secure_create_order', order())).body.success).toBe(false)
    // Past its window and grace by the clock, but not ended: the chain follower has not said so.
    await t.database.db.execute(
      sql`update orders set window_ends_at = now() - interval '2 hours', grace_until = now() - interval '1 hour'`,
    )
    expect((await rpc(t.app, 'secure_create_order', order())).body.success).toBe(false)
    const cancel = { p_order_id: first.body.order_id, p_order_secret: first.body.order_secret }
    expect((await rpc(t.app, 'secure_cancel_order', cancel)).body.success).toBe(true)
    // Cancelled: the address rests for the cool-down before another order may take it.
    expect((await rpc(t.app, 'secure_create_order', order())).body.success).toBe(false)
    await t.database.db.execute(sql`update wallet_addresses set cooldown_until = now() - interval '1 second'`)
    const second = await rpc(t.app, 'secure_create_order', order())
    expect(second.body).toMatchObject({ success: true, wallet_address: address })
    const leases = await listWalletAddresses(t.database.db)
    expect(leases[0]?.leasedOrderId).toBe(second.body.order_id)
  })

  it('200 simultaneous orders against 50 addresses: exactly 50 succeed, no address twice, no 500', async () => {
    const pool = testAddresses(50, `concurrency ${engine}`)
    await addWalletAddresses(t.database.db, pool)
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        rpc(
          t.app,
          'secure_create_order',
          order({ p_wallet_address: pool[i % 5], p_email: `b${i}@example.com` }),
        ),
      ),
    )
    expect(answers.filter((a) => a.status !== 200)).toEqual([])
    const won = answers.filter((a) => a.body.success === true)
    const lost = answers.filter((a) => a.body.success === false)
    expect(won).toHaveLength(50)
    expect(lost.every((a) => a.body.error === unavailable)).toBe(true)
    expect(new Set(won.map((a) => a.body.wallet_address)).size).toBe(50)
    const result = (await t.database.db.execute(
      sql`select wallet_address, count(*)::int as n from orders where status = 'pending' group by 1 having count(*) > 1`,
    )) as unknown as { rows: unknown[] }
    expect(result.rows).toEqual([])
    expect(await count(t, 'orders')).toBe(50)
    expect(await count(t, 'leases')).toBe(50)
  })
})

describe.each(engines)('checkout with the TRX price source down on %s', (engine) => {
  it('still takes the order in USDT and offers no TRX amount', async () => {
    const database = await createTestDatabase(engine)
    await seedOnce(database.db)
    const t = await createTestApp(
      engine,
      { PRICE_SOURCE: 'binance', PRICE_API_URL: 'http://127.0.0.1:9' },
      { database },
    )
    try {
      await addWalletAddresses(database.db, testAddresses(1, 'down'))
      const products = (await rpc(t.app, 'fetch_products')).body.products as {
        id: number
        price: number
        is_free: boolean
      }[]
      const product = products.find((p) => !p.is_free) as { id: number; price: number }
      const { body } = await rpc(t.app, 'secure_create_order', {
        p_email: 'buyer@example.com',
        p_items: [{ product: { id: product.id }, quantity: 1 }],
        p_total: product.price,
      })
      expect(body.success).toBe(true)
      expect(body.trx_amount).toBeUndefined()
    } finally {
      await t.close()
    }
  })
})

// The shop's own embedded database runs in a worker thread, so requests overlap there as they do on
// PostgreSQL: this is where orders are batched.
describe.each(engines)('orders placed together on %s', (engine) => {
  let t: TestApp
  let dataDir: string | undefined
  let paid: { id: number; price: number }[]
  let free: { id: number }

  beforeAll(async () => {
    dataDir = engine === 'pglite' ? mkdtempSync(join(tmpdir(), 'stablecart-batch-')) : undefined
    const database = dataDir
      ? await openDatabase({ dataDir })
      : await createTestDatabase(engine, { poolSize: 20 })
    await seedOnce(database.db)
    t = await createTestApp(engine, withoutLimits, { database })
    ;({ paid, free } = await catalogOf(t))
  })
  afterAll(async () => {
    await t.close()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  it('orders arriving together are placed together, and each gets the answer it would get alone', async () => {
    await addWalletAddresses(t.database.db, testAddresses(60, `batch ${engine}`))
    const [paidA, paidB] = paid as [{ id: number; price: number }, { id: number; price: number }]
    const order = (overrides: Record<string, unknown> = {}) => ({
      p_email: 'buyer@example.com',
      p_items: [
        { product: { id: paidA.id }, quantity: 2 },
        { product: { id: paidB.id }, quantity: 1 },
      ],
      p_total: Math.round((paidA.price * 2 + paidB.price) * 100) / 100,
      ...overrides,
    })
    const key = randomBytes(12).toString('hex')
    const [a] = paid as [{ id: number; price: number }]
    const requests = [
      ...Array.from({ length: 40 }, (_, i) => order({ p_email: `batch${i}@example.com` })),
      // Five retries of one checkout: one order.
      ...Array.from({ length: 5 }, () => order({ p_email: 'retry@example.com', p_idempotency_key: key })),
      order({ p_email: 'wrong-total@example.com', p_total: 1 }),
      order({ p_email: 'unknown@example.com', p_items: [{ product: { id: 999_999 }, quantity: 1 }] }),
      order({
        p_email: 'free@example.com',
        p_items: [{ product: { id: free.id }, quantity: 1 }],
        p_total: 0,
      }),
      order({
        p_email: 'single@example.com',
        p_items: [{ product: { id: a.id }, quantity: 1 }],
        p_total: a.price,
      }),
    ]
    const answers = await Promise.all(requests.map((r) => rpc(t.app, 'secure_create_order', r)))

    const placed = answers.slice(0, 40)
    expect(placed.every((r) => r.status === 200 && r.body.success === true)).toBe(true)
    const retries = answers.slice(40, 45)
    expect(new Set(retries.map((r) => r.body.order_id)).size).toBe(1)
    expect(answers[45]?.body).toEqual({ success: false, error: 'Invalid order total' })
    expect(answers[46]?.status).toBe(400)
    expect(answers[46]?.body.error).toMatch(/unknown product id\(s\) 999999/)
    expect(answers[47]?.status).toBe(400)
    expect(answers[47]?.body.error).toMatch(/is free and is downloaded, not ordered/)
    expect(answers[48]?.body).toMatchObject({ success: true, total: a.price })

    // 42 orders, each on its own address, each with its own secret, totals from the catalogue.
    const won = [...placed, retries[0], answers[48]] as { body: Record<string, unknown> }[]
    expect(await count(t, 'orders')).toBe(42)
    expect(await count(t, 'leases')).toBe(42)
    expect(new Set(won.map((r) => r.body.wallet_address)).size).toBe(42)
    expect(new Set(won.map((r) => r.body.order_secret)).size).toBe(42)
    const history = (await t.database.db.execute(
      sql`select count(*)::int as n from address_leases l join orders o on o.id = l.order_id and o.wallet_address = l.address`,
    )) as unknown as { rows: { n: number }[] }
    expect(history.rows[0]?.n).toBe(42)
    // They were placed in batches: orders of one batch share its clock.
    const clocks = (await t.database.db.execute(
      sql`select count(distinct created_at)::int as n from orders`,
    )) as unknown as { rows: { n: number }[] }
    expect(clocks.rows[0]?.n).toBeLessThan(42)
  })
})
