import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createPaymentFixture, type PaymentFixture } from '../../../tests/support/payment-fixture'
import { testAddresses } from '../../../tests/support/test-addresses'
import { adminSession, createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { createTestDatabase, engines } from '../../../tests/support/test-db'
import { discountMessages } from '../../shared/discounts'
import { formatSun } from '../../shared/trx'
import { ensureFirstAdmin } from '../admin/admin-auth'
import { seedOnce } from '../db/seed'
import { expireOrdersBefore } from '../orders/orders.repo'
import { placeOrder } from '../orders/place-order'
import { addWalletAddresses } from '../wallets/wallets.repo'

const PASSWORD = 'discount-admin-password'

type Product = { id: number; price: number }

/** A code as the admin form sends it: everything optional left out. */
const codeInput = (over: Record<string, unknown>) => ({
  p_kind: 'percent',
  p_percent_bp: null,
  p_amount_cents: null,
  p_min_total_cents: null,
  p_max_discount_cents: null,
  p_product_ids: null,
  p_starts_at: null,
  p_ends_at: null,
  p_max_uses: null,
  p_max_uses_per_email: null,
  p_disabled: false,
  ...over,
})

async function rows(t: TestApp, query: ReturnType<typeof sql>) {
  return ((await t.database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows
}

async function adminCookie(t: TestApp): Promise<Record<string, string>> {
  await ensureFirstAdmin(t.database.db, t.env)
  return adminSession(t)
}

describe.each(engines)('discount codes on %s', (engine) => {
  let t: TestApp
  let admin: Record<string, string>
  let a: Product
  let b: Product

  beforeAll(async () => {
    const database = await createTestDatabase(engine, { poolSize: 20 })
    await seedOnce(database.db)
    t = await createTestApp(engine, { ADMIN_PASSWORD: PASSWORD }, { database })
    admin = await adminCookie(t)
    const listed = (await rpc(t.app, 'fetch_products')).body.products as (Product & { is_free: boolean })[]
    const paid = listed.filter((p) => !p.is_free && p.price > 0).sort((x, y) => x.price - y.price)
    a = paid[0] as Product
    b = paid[1] as Product
  })
  afterAll(() => t.close())

  beforeEach(async () => {
    await t.database.db.execute(sql`delete from orders`)
    await t.database.db.execute(sql`delete from discount_codes`)
    await t.database.db.execute(sql`delete from wallet_addresses`)
    await addWalletAddresses(t.database.db, testAddresses(5, `${engine}-${Math.random()}`))
  })

  const save = async (over: Record<string, unknown>) => {
    const res = await rpc(t.app, 'secure_save_discount', codeInput(over), admin)
    return res
  }
  const create = async (over: Record<string, unknown>) => {
    const res = await save(over)
    expect(res.body).toMatchObject({ success: true })
    return res.body.id as number
  }
  const cents = (dollars: number) => Math.round(dollars * 100)
  const cart = (lines: [Product, number][]) =>
    lines.map(([p, quantity]) => ({ product: { id: p.id }, quantity }))
  const check = (code: string, lines: [Product, number][], email?: string) =>
    rpc(t.app, 'secure_check_discount', {
      p_code: code,
      p_items: cart(lines),
      ...(email ? { p_email: email } : {}),
    })
  const order = (code: string, lines: [Product, number][], totalCents: number, email = 'buyer@example.com') =>
    rpc(t.app, 'secure_create_order', {
      p_email: email,
      p_items: cart(lines),
      p_total: totalCents / 100,
      p_discount_code: code,
    })

  it('takes a percentage (rounded down), a fixed amount, and a cap off the server’s own total', async () => {
    await create({ p_code: 'Launch15', p_percent_bp: 1550 })
    await create({ p_code: 'FIVE', p_kind: 'fixed', p_amount_cents: 500 })
    await create({ p_code: 'CAPPED', p_percent_bp: 5000, p_max_discount_cents: 700 })
    const subtotal = cents(a.price) * 2 + cents(b.price)
    const percent = Math.floor((subtotal * 1550) / 10_000)
    // Case-insensitive: the shop answers its own spelling.
    expect(
      (
        await check('launch15', [
          [a, 2],
          [b, 1],
        ])
      ).body,
    ).toEqual({
      success: true,
      code: 'Launch15',
      subtotal_cents: subtotal,
      discount_cents: percent,
      total_cents: subtotal - percent,
    })
    expect((await check('five', [[a, 1]])).body).toMatchObject({
      discount_cents: 500,
      total_cents: cents(a.price) - 500,
    })
    expect((await check('capped', [[b, 3]])).body).toMatchObject({ discount_cents: 700 })

    // The order: the total, the TRX amount (1 TRX = $0.25) and the answer all carry the discount.
    const placed = await order(
      'LAUNCH15',
      [
        [a, 2],
        [b, 1],
      ],
      subtotal - percent,
    )
    expect(placed.body).toMatchObject({
      success: true,
      total: (subtotal - percent) / 100,
      subtotal: subtotal / 100,
      discount: percent / 100,
      discount_code: 'Launch15',
      trx_amount: formatSun(BigInt(subtotal - percent) * 40_000n),
    })
    const [row] = await rows(
      t,
      sql`select total_cents, discount_cents, discount_code, native_amount_units from orders`,
    )
    expect(Number(row?.total_cents)).toBe(subtotal - percent)
    expect(Number(row?.discount_cents)).toBe(percent)
    expect(BigInt(String(row?.native_amount_units))).toBe(BigInt(subtotal - percent) * 40_000n)
    // The undiscounted total is not what the buyer is asked for: refused, nothing placed.
    const wrong = await order('LAUNCH15', [[a, 1]], cents(a.price))
    expect(wrong.body).toEqual({ success: false, error: 'Invalid order total' })
    expect(await rows(t, sql`select id from orders`)).toHaveLength(1)
  })

  it('gives each refusal its own reason, at the check and at the order', async () => {
    const hour = 3_600_000
    await create({
      p_code: 'LATER',
      p_percent_bp: 1000,
      p_starts_at: new Date(Date.now() + hour).toISOString(),
    })
    await create({
      p_code: 'GONE',
      p_percent_bp: 1000,
      p_starts_at: new Date(Date.now() - 2 * hour).toISOString(),
      p_ends_at: new Date(Date.now() - hour).toISOString(),
    })
    await create({ p_code: 'ONLYB', p_percent_bp: 1000, p_product_ids: [b.id] })
    await create({ p_code: 'BIGSPEND', p_percent_bp: 1000, p_min_total_cents: cents(a.price) + 1 })
    await create({ p_code: 'ALLOFIT', p_kind: 'fixed', p_amount_cents: cents(b.price) * 10 })
    await create({ p_code: 'OFF', p_percent_bp: 1000, p_disabled: true })
    await create({ p_code: 'ONCE', p_percent_bp: 1000, p_max_uses: 1 })
    const cases: [string, string][] = [
      ['NOPE', discountMessages.unknown],
      ['OFF', discountMessages.unknown],
      ['LATER', discountMessages.notStarted],
      ['GONE', discountMessages.expired],
      ['ONLYB', discountMessages.notForProducts],
      ['BIGSPEND', discountMessages.minimum(cents(a.price) + 1)],
      ['ALLOFIT', discountMessages.toZero],
    ]
    for (const [code, error] of cases) {
      expect((await check(code, [[a, 1]])).body, code).toEqual({ success: false, error })
      expect((await order(code, [[a, 1]], cents(a.price))).body, code).toEqual({ success: false, error })
    }
    // Product scope: the discount is taken off the lines it applies to only.
    const scoped = await check('ONLYB', [
      [a, 1],
      [b, 2],
    ])
    expect(scoped.body).toMatchObject({ discount_cents: Math.floor((cents(b.price) * 2 * 1000) / 10_000) })

    const once = Math.floor((cents(a.price) * 1000) / 10_000)
    expect((await order('ONCE', [[a, 1]], cents(a.price) - once)).body).toMatchObject({ success: true })
    expect((await check('ONCE', [[a, 1]])).body).toEqual({ success: false, error: discountMessages.usedUp })
    expect((await order('ONCE', [[a, 1]], cents(a.price) - once, 'other@example.com')).body).toEqual({
      success: false,
      error: discountMessages.usedUp,
    })
    expect(await rows(t, sql`select id from orders`)).toHaveLength(1)
    // Bad codes are a 400 that names the field.
    const bad = await rpc(t.app, 'secure_check_discount', {
      p_code: 'x'.repeat(500),
      p_items: cart([[a, 1]]),
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatch(/p_code/)
  })

  it('limits uses per e-mail address (any case); a cancelled or expired order gives its use back', async () => {
    await create({ p_code: 'PERMAIL', p_kind: 'fixed', p_amount_cents: 100, p_max_uses_per_email: 1 })
    const total = cents(a.price) - 100
    const first = await order('PERMAIL', [[a, 1]], total, 'Repeat@Example.com')
    expect(first.body).toMatchObject({ success: true })
    expect((await check('PERMAIL', [[a, 1]], 'repeat@example.com')).body).toEqual({
      success: false,
      error: discountMessages.usedByEmail,
    })
    expect((await order('PERMAIL', [[a, 1]], total, 'repeat@example.COM')).body).toEqual({
      success: false,
      error: discountMessages.usedByEmail,
    })
    expect((await order('PERMAIL', [[a, 1]], total, 'someone@example.com')).body).toMatchObject({
      success: true,
    })
    const cancelled = await rpc(t.app, 'secure_cancel_order', {
      p_order_id: first.body.order_id,
      p_order_secret: first.body.order_secret,
    })
    expect(cancelled.body).toEqual({ success: true })
    expect((await order('PERMAIL', [[a, 1]], total, 'repeat@example.com')).body).toMatchObject({
      success: true,
    })

    // An order that expires unpaid gives its use back too.
    await create({ p_code: 'EXPIRING', p_kind: 'fixed', p_amount_cents: 100, p_max_uses: 1 })
    expect((await order('EXPIRING', [[a, 1]], total, 'slow@example.com')).body).toMatchObject({
      success: true,
    })
    expect((await check('EXPIRING', [[a, 1]])).body).toEqual({
      success: false,
      error: discountMessages.usedUp,
    })
    const expired = await t.database.db.transaction((tx) =>
      expireOrdersBefore(tx, Date.now() + 24 * 3_600_000, t.app.services.rules.cooldownMs, 'tron'),
    )
    expect(expired.length).toBeGreaterThan(0)
    expect((await order('EXPIRING', [[a, 1]], total, 'next@example.com')).body).toMatchObject({
      success: true,
    })
  })

  it('100 buyers racing for the last use: exactly one order gets it', async () => {
    await create({ p_code: 'LASTONE', p_kind: 'fixed', p_amount_cents: 100, p_max_uses: 3 })
    const total = cents(a.price) - 100
    for (const email of ['early1@example.com', 'early2@example.com']) {
      expect((await order('LASTONE', [[a, 1]], total, email)).body).toMatchObject({ success: true })
    }
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => order('LASTONE', [[a, 1]], total, `racer${i}@example.com`)),
    )
    const won = answers.filter((r) => r.body.success === true)
    expect(won).toHaveLength(1)
    for (const r of answers.filter((x) => x.body.success !== true)) {
      expect(r.body).toEqual({ success: false, error: discountMessages.usedUp })
    }
    const [counted] = await rows(
      t,
      sql`select count(*)::int as n from orders o join discount_codes d on d.id = o.discount_code_id where d.code = 'LASTONE'`,
    )
    expect(counted?.n).toBe(3)

    // The same race with every buyer in a transaction of their own (no batching to share a count):
    // on PostgreSQL they run side by side and meet only at the code's row lock.
    await create({ p_code: 'LOCKED', p_kind: 'fixed', p_amount_cents: 100, p_max_uses: 1 })
    const opts = { windowMs: 60_000, graceMs: 60_000 }
    const alone = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        placeOrder(
          t.database.db,
          {
            p_email: `alone${i}@example.com`,
            p_items: cart([[a, 1]]),
            p_total: total / 100,
            p_chain: 'tron',
            p_discount_code: 'locked',
          },
          opts,
        ),
      ),
    )
    const placed = alone.filter((r) => r.status === 'fulfilled' && r.value.success)
    expect(placed).toHaveLength(1)
    const [locked] = await rows(
      t,
      sql`select count(*)::int as n from orders o join discount_codes d on d.id = o.discount_code_id where d.code = 'LOCKED'`,
    )
    expect(locked?.n).toBe(1)
  })

  it('lists codes with uses and revenue; the admin’s changes are audited; bad input is a 400', async () => {
    const id = await create({ p_code: 'AUDITED', p_percent_bp: 2500 })
    // Unique whatever the case.
    const dup = await save({ p_code: 'audited', p_percent_bp: 100 })
    expect(dup.status).toBe(409)
    expect(dup.body.error).toMatch(/already exists/)
    expect(
      (await save({ p_id: id, p_code: 'AUDITED', p_percent_bp: 3000, p_max_uses: 10 })).body,
    ).toMatchObject({
      success: true,
    })
    expect(
      (await rpc(t.app, 'secure_set_discount_disabled', { p_id: id, p_disabled: true }, admin)).body,
    ).toEqual({ success: true })
    for (const [over, field] of [
      [{ p_code: 'FLOAT', p_kind: 'fixed', p_amount_cents: 12.5 }, 'p_amount_cents'],
      [{ p_code: 'HUGE', p_percent_bp: 10_001 }, 'p_percent_bp'],
      [{ p_code: 'DATES', p_percent_bp: 10, p_starts_at: '99999-01-01T00:00:00Z' }, 'p_starts_at'],
      [{ p_code: 'IDS', p_percent_bp: 10, p_product_ids: [2 ** 40] }, 'p_product_ids'],
      [{ p_id: 2 ** 40, p_code: 'ID', p_percent_bp: 10 }, 'p_id'],
    ] as const) {
      const res = await save(over)
      expect(res.status, field).toBe(400)
      expect(res.body.error).toContain(field)
    }
    const missing = await rpc(
      t.app,
      'secure_set_discount_disabled',
      { p_id: 999_999, p_disabled: true },
      admin,
    )
    expect(missing.status).toBe(404)
    const audit = await rows(
      t,
      sql`select action, target, details from audit_log where action like 'discount_%' and target = ${String(id)} order by id`,
    )
    expect(audit.map((r) => r.action)).toEqual(['discount_create', 'discount_update', 'discount_disable'])
    expect(audit[1]?.details).toMatchObject({ code: 'AUDITED', fields: ['percent_bp', 'max_uses'] })

    // Uses, paid orders and revenue.
    await create({ p_code: 'COUNTED', p_kind: 'fixed', p_amount_cents: 100 })
    const placed = await order('COUNTED', [[a, 1]], cents(a.price) - 100)
    await order('COUNTED', [[a, 1]], cents(a.price) - 100, 'second@example.com')
    await rpc(
      t.app,
      'secure_update_order_status',
      { p_order_id: placed.body.order_id, p_status: 'paid' },
      admin,
    )
    const listed = await rpc(t.app, 'secure_fetch_discounts', {}, admin)
    const counted = (listed.body.codes as Record<string, unknown>[]).find((c) => c.code === 'COUNTED')
    expect(counted).toMatchObject({
      uses: 2,
      paid_orders: 1,
      revenue_cents: cents(a.price) - 100,
      discount_given_cents: 100,
    })
    expect((listed.body.codes as Record<string, unknown>[]).find((c) => c.code === 'AUDITED')).toMatchObject({
      disabled: true,
      percent_bp: 3000,
      max_uses: 10,
    })
    // Not for buyers.
    expect((await rpc(t.app, 'secure_fetch_discounts', {})).status).toBe(401)
  })

  it('the order.created webhook and the CSV export carry the code and the discount', async () => {
    await t.database.db.execute(
      sql`insert into webhook_endpoints (url, events, secret) values ('http://127.0.0.1:9/hook', '["order.created"]', 'secret')`,
    )
    await create({ p_code: 'HOOKED', p_kind: 'fixed', p_amount_cents: 250 })
    await order('HOOKED', [[a, 1]], cents(a.price) - 250)
    const [delivery] = await rows(
      t,
      sql`select body from webhook_deliveries where event_type = 'order.created'`,
    )
    const event = JSON.parse(String(delivery?.body))
    expect(event.data).toMatchObject({
      discount_code: 'HOOKED',
      discount_usd: '2.50',
      total_usd: ((cents(a.price) - 250) / 100).toFixed(2),
      subtotal_usd: a.price.toFixed(2),
    })
    const csv = await t.app.inject({ method: 'GET', url: '/api/admin/export/orders.csv', headers: admin })
    expect(csv.statusCode).toBe(200)
    const [header, line] = csv.body.replace('\uFEFF', '').trim().split('\r\n') as [string, string]
    expect(header).toContain(',discount_code,discount_usd,')
    // The refund columns follow, empty: nothing was refunded; then the seller's order id (none).
    expect(line.endsWith(',HOOKED,2.50,,,')).toBe(true)
    await t.database.db.execute(sql`delete from webhook_deliveries`)
    await t.database.db.execute(sql`delete from webhook_endpoints`)
  })
})

describe.each(engines)('discounted orders paid on the devchain on %s', (engine) => {
  let f: PaymentFixture
  let admin: Record<string, string>

  beforeAll(async () => {
    f = await createPaymentFixture(engine, { pool: 6, env: { ADMIN_PASSWORD: PASSWORD } })
    admin = await adminCookie(f.t)
    const res = await rpc(
      f.t.app,
      'secure_save_discount',
      codeInput({ p_code: 'PAYLESS', p_percent_bp: 2000 }),
      admin,
    )
    expect(res.body).toMatchObject({ success: true })
    await f.t.database.db.execute(
      sql`insert into webhook_endpoints (url, events, secret) values ('http://127.0.0.1:9/hook', '["order.paid"]', 'secret')`,
    )
  })
  afterAll(() => f.close())

  // $price × 2 with 20 % off.
  const discounted = () => {
    const product = f.products[0] as Product
    const subtotal = Math.round(product.price * 100) * 2
    return { subtotal, discount: Math.floor(subtotal / 5), total: subtotal - Math.floor(subtotal / 5) }
  }

  it('credits USDT at the discounted total, within the usual tolerance; e-mail, dashboard and webhook show the discount', async () => {
    const d = discounted()
    const o = await f.placeOrder({ quantity: 2, discount: { code: 'payless', total: d.total / 100 } })
    expect(o.total).toBe(d.total / 100)
    // $1.90 short of the discounted total is inside the default tolerance ($2).
    const sent = await f.pay({ to: o.address, amount: ((d.total - 190) / 100).toFixed(2) })
    expect(await f.status(o.id)).toMatchObject({ status: 'paid', tx_hash: sent.txId })
    const [mail] = await f.rows(sql`select text_body, html from mail_outbox where order_id = ${o.id}`)
    expect(mail?.text_body).toContain(`Discount (PAYLESS): −$${(d.discount / 100).toFixed(2)}`)
    expect(mail?.text_body).toContain(`Total paid: $${(d.total / 100).toFixed(2)}`)
    expect(mail?.html).toContain('Discount (PAYLESS)')
    const [row] = await f.rows(sql`select access_token from orders where id = ${o.id}`)
    const dash = await rpc(f.t.app, 'secure_fetch_dashboard', { p_access_token: row?.access_token })
    expect(dash.body.order).toMatchObject({
      total: d.total / 100,
      discount: d.discount / 100,
      discount_code: 'PAYLESS',
    })
    const [hook] = await f.rows(sql`select body from webhook_deliveries where event_type = 'order.paid'`)
    expect(JSON.parse(String(hook?.body)).data).toMatchObject({
      discount_code: 'PAYLESS',
      discount_usd: (d.discount / 100).toFixed(2),
      total_usd: (d.total / 100).toFixed(2),
    })
  })

  it('asks for TRX at the locked rate on the discounted total, and pays with it', async () => {
    const d = discounted()
    const o = await f.placeOrder({
      quantity: 2,
      discount: { code: 'PAYLESS', total: d.total / 100 },
      email: 'trx@example.com',
    })
    // 1 TRX = $0.25: four TRX per discounted dollar.
    expect(o.trxAmount).toBe(formatSun(BigInt(d.total) * 40_000n))
    const short = await f.send({
      to: o.address,
      amount: (((d.total - 250) * 4) / 100).toFixed(2),
      token: 'TRX',
    })
    await f.settle(short.block)
    // $2.50 short is outside the tolerance: still pending, then the rest pays it.
    expect(await f.status(o.id)).toMatchObject({ status: 'pending' })
    await f.pay({ to: o.address, amount: '10', token: 'TRX' })
    expect(await f.status(o.id)).toMatchObject({ status: 'paid', amount_received: d.total / 100 })
  })
})
