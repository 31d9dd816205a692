import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { adminMessages } from '../../shared/admin'
import { tronHexToBase58 } from '../../shared/tron-address'
import {
  adminSessions,
  adminUsers,
  licenseKeys,
  mailOutbox,
  orders,
  payments,
  walletAddresses,
} from '../db/schema'
import { seedOnce } from '../db/seed'
import { addWalletAddresses } from '../wallets/wallets.repo'
import { ensureFirstAdmin, SESSION_COOKIE } from './admin-auth'

const PASSWORD = 'first-admin-password'
const address = (i: number) => tronHexToBase58(`41${(0xa0000000 + i).toString(16).padStart(40, '0')}`)

/** Every admin call, with a payload that would pass validation. */
const adminCalls: [string, Record<string, unknown>][] = [
  ['secure_admin_session', {}],
  ['secure_fetch_orders', {}],
  ['secure_fetch_order', { p_order_id: randomUUID() }],
  ['secure_update_order_status', { p_order_id: randomUUID(), p_status: 'paid' }],
  ['secure_delete_order', { p_order_id: randomUUID() }],
  ['secure_resend_order_email', { p_order_id: randomUUID() }],
  ['secure_fetch_unmatched_payments', {}],
  ['secure_assign_payment', { p_payment_id: 1, p_order_id: randomUUID() }],
  ['secure_fetch_admin_products', {}],
  ['secure_manage_product', { p_product: {} }],
  ['secure_delete_product', { p_product_id: 999 }],
  ['secure_fetch_wallet_addresses', {}],
  ['secure_add_wallet_addresses', { p_addresses: [address(1)] }],
  ['secure_remove_wallet_address', { p_address: address(1) }],
  ['secure_remove_wallet_addresses', { p_addresses: [address(1)] }],
  ['secure_update_site_content', { p_content: {} }],
  ['secure_fetch_sales', {}],
  ['secure_fetch_audit_log', {}],
  [
    'secure_update_stock_settings',
    { p_product_id: 1, p_delivery_mode: 'stock_only', p_low_stock_threshold: null },
  ],
  [
    'secure_update_admin_credentials',
    { p_current_password: 'x', p_new_username: 'y', p_new_password: 'zzzzzzzz' },
  ],
  ['secure_admin_2fa_status', {}],
  ['secure_admin_2fa_begin', {}],
  ['secure_admin_2fa_enable', { p_password: 'x', p_code: '123456' }],
  ['secure_admin_2fa_disable', { p_password: 'x', p_code: '123456' }],
  ['secure_fetch_settings', {}],
  [
    'secure_update_settings',
    {
      p_settings: {
        operator_email: null,
        telegram_chat_id: null,
        alerts: {
          order_paid: true,
          payment_unmatched: true,
          stock_low: true,
          pool_low: true,
          mail_failing: true,
          scanner_stalled: true,
        },
        low_stock_threshold: 5,
      },
    },
  ],
  ['secure_fetch_webhooks', {}],
  [
    'secure_save_webhook',
    { p_url: 'https://example.com/h', p_events: ['order.paid'], p_include_keys: false, p_enabled: true },
  ],
  ['secure_delete_webhook', { p_id: 1 }],
  ['secure_fetch_webhook_deliveries', { p_id: 1 }],
  ['secure_resend_webhook', { p_delivery_id: 1 }],
]

function cookieOf(headers: Record<string, unknown>): string {
  const raw = headers['set-cookie']
  const list = Array.isArray(raw) ? raw : [String(raw)]
  const line = list.find((c) => c.startsWith(`${SESSION_COOKIE}=`))
  if (!line) throw new Error('no session cookie')
  return line.split(';')[0] as string
}

async function login(
  t: TestApp,
  username = 'admin',
  password = PASSWORD,
  headers: Record<string, string> = {},
) {
  const res = await rpc(t.app, 'secure_admin_login', { p_username: username, p_password: password }, headers)
  expect(res.body).toMatchObject({ success: true })
  return { cookie: cookieOf(res.headers), setCookie: String(res.headers['set-cookie']) }
}

async function insertOrder(t: TestApp, i: number, status: 'pending' | 'paid' | 'completed' | 'cancelled') {
  const id = randomUUID()
  await t.database.db.insert(orders).values({
    id,
    email: `Buyer${i}@Example.com`,
    items: [{ product: { id: 1, name: 'Thing', price_cents: 1000 }, quantity: 1 }],
    totalCents: 1000 + i,
    walletAddress: address(100 + i),
    status,
    createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
    windowEndsAt: new Date(Date.now() + 30 * 60_000),
    graceUntil: new Date(Date.now() + 90 * 60_000),
  })
  return id
}

describe.each(engines)('admin calls on %s', (engine) => {
  let t: TestApp
  let cookie: string
  const as = () => ({ cookie })

  beforeAll(async () => {
    t = await createTestApp(engine, { ADMIN_PASSWORD: PASSWORD })
    await seedOnce(t.database.db)
    const first = await ensureFirstAdmin(t.database.db, t.env)
    expect(first).toMatchObject({ created: true, generatedPassword: undefined })
    expect(await ensureFirstAdmin(t.database.db, t.env)).toMatchObject({ created: false })
    ;({ cookie } = await login(t))
  })
  afterAll(() => t.close())

  it('the session cookie is HttpOnly, SameSite=Strict and not Secure over http', async () => {
    const { setCookie } = await login(t)
    expect(setCookie).toMatch(/HttpOnly/)
    expect(setCookie).toMatch(/SameSite=Strict/)
    expect(setCookie).not.toMatch(/Secure/)
  })

  it('a session ends after its idle time and after its absolute lifetime', async () => {
    const idle = await login(t)
    const lifetime = await login(t)
    expect((await rpc(t.app, 'secure_admin_session', {}, { cookie: idle.cookie })).status).toBe(200)
    const all = await t.database.db.select().from(adminSessions)
    // The two newest sessions are these two; age them on the server.
    const [a, b] = all.sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime())
    await t.database.db
      .update(adminSessions)
      .set({ lastSeenAt: new Date(Date.now() - 3 * 60 * 60 * 1000) })
      .where(eq(adminSessions.tokenHash, b!.tokenHash))
    await t.database.db
      .update(adminSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(adminSessions.tokenHash, a!.tokenHash))
    expect((await rpc(t.app, 'secure_admin_session', {}, { cookie: idle.cookie })).status).toBe(401)
    expect((await rpc(t.app, 'secure_admin_session', {}, { cookie: lifetime.cookie })).status).toBe(401)
    // The table keeps only hashes of the tokens.
    const raw = (c: string) => c.split('=')[1]
    expect(
      all.some((row) => row.tokenHash === raw(idle.cookie) || row.tokenHash === raw(lifetime.cookie)),
    ).toBe(false)
    expect((await rpc(t.app, 'secure_admin_session', {}, as())).status).toBe(200)
  })

  it.each(adminCalls)('%s without a session is 401 Unauthorized', async (name, payload) => {
    const res = await rpc(t.app, name, payload)
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ success: false, error: 'Unauthorized' })
    const stale = await rpc(t.app, name, payload, { cookie: `${SESSION_COOKIE}=not-a-session` })
    expect(stale.status).toBe(401)
  })

  it.each(adminCalls)('%s from a foreign Origin is refused', async (name, payload) => {
    const res = await rpc(t.app, name, payload, { ...as(), origin: 'https://evil.example' })
    expect(res.status).toBe(403)
    const site = await rpc(t.app, name, payload, { ...as(), 'sec-fetch-site': 'cross-site' })
    expect(site.status).toBe(403)
  })

  it('login from a foreign Origin is refused; the own origin passes', async () => {
    const foreign = await rpc(
      t.app,
      'secure_admin_login',
      { p_username: 'admin', p_password: PASSWORD },
      { origin: 'https://evil.example' },
    )
    expect(foreign.status).toBe(403)
    const own = await rpc(t.app, 'secure_admin_session', {}, { ...as(), origin: 'http://localhost:80' })
    expect(own.status).toBe(200)
  })

  it('the sixth wrong password within 15 minutes is 429, even with the right password', async () => {
    const attempt = (password: string, remoteAddress = '10.9.9.9') =>
      t.app.inject({
        method: 'POST',
        url: '/rpc/secure_admin_login',
        payload: { p_username: 'admin', p_password: password },
        remoteAddress,
      })
    for (let i = 0; i < 5; i++) {
      const res = await attempt('wrong')
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ success: false, error: adminMessages.invalidCredentials })
    }
    const sixth = await attempt('wrong')
    expect(sixth.statusCode).toBe(429)
    expect(sixth.json()).toEqual({ success: false, error: adminMessages.tooManyAttempts })
    expect((await attempt(PASSWORD)).statusCode).toBe(429)
    // Another client is not locked out.
    expect((await attempt(PASSWORD, '10.9.9.10')).json()).toMatchObject({ success: true })
  })

  it('a burst of parallel wrong passwords gets at most 5 tries', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/rpc/secure_admin_login',
          payload: { p_username: 'admin', p_password: 'wrong' },
          remoteAddress: '10.8.8.8',
        }),
      ),
    )
    const tried = results.filter((r) => r.statusCode === 200).length
    expect(tried).toBeLessThanOrEqual(5)
    expect(results.filter((r) => r.statusCode === 429).length).toBe(12 - tried)
  })

  it('orders: case-insensitive search on id, e-mail and address, status filter, pagination', async () => {
    const ids: string[] = []
    const statuses = ['pending', 'paid', 'completed', 'cancelled'] as const
    for (let i = 0; i < 30; i++) ids.push(await insertOrder(t, i, statuses[i % 4]!))
    const fetch = async (payload: Record<string, unknown>) => {
      const res = await rpc(t.app, 'secure_fetch_orders', payload, as())
      expect(res.status).toBe(200)
      return res.body as { orders: { id: string; email: string; status: string }[]; total_count: number }
    }
    const all = await fetch({ p_page_size: 10 })
    expect(all.total_count).toBe(30)
    expect(all.orders).toHaveLength(10)
    // Newest first.
    expect(all.orders[0]!.id).toBe(ids[29])
    const page3 = await fetch({ p_page_size: 10, p_page: 3 })
    expect(page3.orders.map((o) => o.id)).toEqual(ids.slice(0, 10).reverse())

    expect((await fetch({ p_search: 'BUYER17@example.COM' })).orders.map((o) => o.id)).toEqual([ids[17]])
    expect((await fetch({ p_search: ids[5]!.slice(0, 13).toUpperCase() })).orders[0]!.id).toBe(ids[5])
    expect((await fetch({ p_search: ids[6]! })).orders.map((o) => o.id)).toEqual([ids[6]])
    expect((await fetch({ p_search: address(100 + 8) })).orders.map((o) => o.id)).toEqual([ids[8]])
    expect(
      (
        await fetch({
          p_search: address(100 + 9)
            .slice(-12)
            .toLowerCase(),
        })
      ).total_count,
    ).toBe(1)
    expect((await fetch({ p_search: '100%_' })).total_count).toBe(0)

    const paid = await fetch({ p_status: 'paid', p_page_size: 200 })
    expect(paid.total_count).toBe(8)
    expect(paid.orders.every((o) => o.status === 'paid')).toBe(true)
    expect((await fetch({ p_status: 'paid', p_search: 'buyer1' })).total_count).toBe(
      [1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19].filter((i) => i % 4 === 1).length,
    )
  })

  it('orders: Next and Previous read from the order at the page edge and give the counted pages', async () => {
    // Twelve orders within two microseconds: ties on the time and times a millisecond cannot tell apart.
    await t.database.db.execute(sql`
      insert into orders (id, created_at, email, items, total_cents, wallet_address, status, window_ends_at, grace_until)
      select gen_random_uuid(), '2025-06-01 00:00:00.000001+00'::timestamptz + (i / 5) * interval '1 microsecond',
             'keyset' || i || '@example.com', '[]'::jsonb, 100, 'T' || i, 'completed', now(), now()
      from generate_series(1, 12) as i`)
    const fetch = async (payload: Record<string, unknown>) => {
      const res = await rpc(
        t.app,
        'secure_fetch_orders',
        { p_search: 'keyset', p_page_size: 5, ...payload },
        as(),
      )
      expect(res.status).toBe(200)
      return (res.body as { orders: { id: string }[] }).orders.map((o) => o.id)
    }
    const counted = [await fetch({ p_page: 1 }), await fetch({ p_page: 2 }), await fetch({ p_page: 3 })]
    expect(counted.map((p) => p.length)).toEqual([5, 5, 2])
    expect(new Set(counted.flat()).size).toBe(12)
    const [one, two, three] = counted as [string[], string[], string[]]
    expect(await fetch({ p_page: 2, p_after_id: one.at(-1) })).toEqual(two)
    expect(await fetch({ p_page: 3, p_after_id: two.at(-1) })).toEqual(three)
    expect(await fetch({ p_page: 2, p_before_id: three[0] })).toEqual(two)
    expect(await fetch({ p_page: 1, p_before_id: two[0] })).toEqual(one)
    expect(await fetch({ p_page: 4, p_after_id: three.at(-1) })).toEqual([])
    // A search counts its matches with its page, also past the last page.
    for (const p_page of [1, 9]) {
      const res = await rpc(
        t.app,
        'secure_fetch_orders',
        { p_search: 'KEYSET', p_page_size: 5, p_page },
        as(),
      )
      expect(res.body).toMatchObject({ total_count: 12, page: p_page })
    }
    // With the status filter the same.
    expect(await fetch({ p_status: 'completed', p_page: 2, p_after_id: one.at(-1) })).toEqual(two)
    // An edge order that is gone: the page is counted from the start.
    expect(await fetch({ p_page: 2, p_after_id: randomUUID() })).toEqual(two)
    const both = await rpc(t.app, 'secure_fetch_orders', { p_after_id: one[0], p_before_id: two[0] }, as())
    expect(both.status).toBe(400)
    const bad = await rpc(t.app, 'secure_fetch_orders', { p_after_id: 'one; drop table orders' }, as())
    expect(bad.status).toBe(400)
  })

  it('orders: any status to any other, bulk delete, detail with payments, keys and mail, resend', async () => {
    const id = await insertOrder(t, 100, 'completed')
    // Back to pending takes the order's own address, which must be in the pool and free.
    await addWalletAddresses(t.database.db, [address(200)])
    for (const status of ['pending', 'cancelled', 'paid', 'completed'] as const) {
      const res = await rpc(t.app, 'secure_update_order_status', { p_order_id: id, p_status: status }, as())
      expect(res.body).toEqual({ success: true })
      const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id))
      expect(row!.status).toBe(status)
    }
    const bad = await rpc(t.app, 'secure_update_order_status', { p_order_id: id, p_status: 'lost' }, as())
    expect(bad.status).toBe(400)

    // Marking an unpaid order paid by hand delivered it as a payment from the chain would.
    const [delivered] = await t.database.db.select().from(orders).where(eq(orders.id, id))
    expect(delivered!.accessToken).toMatch(/^[A-Za-z0-9_-]{32}$/)
    const handedOut = await t.database.db.select().from(licenseKeys).where(eq(licenseKeys.orderId, id))
    expect(handedOut).toHaveLength(delivered!.items.reduce((n, item) => n + item.quantity, 0))
    const queued = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.orderId, id))
    expect(queued).toMatchObject([{ kind: 'order_paid', status: 'pending', toEmail: delivered!.email }])
    await t.database.db
      .update(mailOutbox)
      .set({ status: 'failed', attempts: 7, lastError: 'refused' })
      .where(eq(mailOutbox.orderId, id))
    await t.database.db.insert(payments).values([
      {
        orderId: id,
        txId: 'a'.repeat(64),
        token: 'USDT',
        amountUnits: 10_000_000n,
        fromAddress: address(1),
        toAddress: address(200),
        blockTimestamp: 1,
      },
      {
        orderId: null,
        txId: 'b'.repeat(64),
        token: 'USDT',
        amountUnits: 2_500_000n,
        fromAddress: address(1),
        toAddress: address(201),
        blockTimestamp: 2,
      },
    ])
    const detail = await rpc(t.app, 'secure_fetch_order', { p_order_id: id }, as())
    expect(detail.body).toMatchObject({
      success: true,
      order: { id, status: 'completed' },
      payments: [{ tx_id: 'a'.repeat(64), amount: '10.000000' }],
      mails: [{ status: 'failed', attempts: 7 }],
    })
    expect(await rpc(t.app, 'secure_resend_order_email', { p_order_id: id }, as())).toMatchObject({
      body: { success: true, queued: 1 },
    })
    const [mail] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.orderId, id))
    expect(mail).toMatchObject({ status: 'pending', attempts: 0, lastError: null })

    const unmatched = await rpc(t.app, 'secure_fetch_unmatched_payments', {}, as())
    const stray = (unmatched.body.payments as { id: number; tx_id: string }[]).find(
      (p) => p.tx_id === 'b'.repeat(64),
    )!
    const other = await insertOrder(t, 101, 'pending')
    const assign = await rpc(
      t.app,
      'secure_assign_payment',
      { p_payment_id: stray.id, p_order_id: other },
      as(),
    )
    expect(assign.body).toEqual({ success: true, paid: false })
    const again = await rpc(
      t.app,
      'secure_assign_payment',
      { p_payment_id: stray.id, p_order_id: other },
      as(),
    )
    expect(again.body).toMatchObject({ success: false })
    const otherDetail = await rpc(t.app, 'secure_fetch_order', { p_order_id: other }, as())
    expect(otherDetail.body).toMatchObject({ order: { amount_received: 2.5, underpaid: true } })
    // TRX counts at the order's locked rate: 10 TRX at $0.25 = $2.50 more.
    await t.database.db
      .update(orders)
      .set({ nativeRateE8: 25_000_000n, nativeReceivedUnits: 10_000_000n, nativeAmountUnits: 40_040_000n })
      .where(eq(orders.id, other))
    const withTrx = await rpc(t.app, 'secure_fetch_order', { p_order_id: other }, as())
    expect(withTrx.body).toMatchObject({
      order: { amount_received: 5, trx_received: '10.00', trx_amount: '40.04', underpaid: true },
    })

    // Bulk delete: one call per order, in parallel, as the panel does.
    const results = await Promise.all(
      [id, other].map((orderId) => rpc(t.app, 'secure_delete_order', { p_order_id: orderId }, as())),
    )
    expect(results.map((r) => r.body)).toEqual([{ success: true }, { success: true }])
    expect(await t.database.db.select().from(orders).where(eq(orders.id, id))).toHaveLength(0)
    // Its payment is kept, unmatched again.
    const kept = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.txId, 'a'.repeat(64)))
    expect(kept[0]!.orderId).toBeNull()
    const gone = await rpc(t.app, 'secure_delete_order', { p_order_id: id }, as())
    expect(gone.body).toMatchObject({ success: false })
  })

  it('products: the form rules, add, edit, key stock and delete, seen by fetch_products', async () => {
    const base = {
      name: '<script>alert(1)</script> Tool',
      description: 'Desc <img src=x onerror=alert(1)>',
      price: 12.5,
      image: '/images/products/lte-rotator.svg',
      features: ['One', '', '  <b>Two</b>  '],
      video_id: '  ',
      is_free: false,
      download_url: '',
      has_details: true,
    }
    const manage = (p_product: unknown, extra: Record<string, unknown> = {}) =>
      rpc(t.app, 'secure_manage_product', { p_product, ...extra }, as())

    expect((await manage({ ...base, is_free: true, price: 9 })).body).toEqual({
      success: false,
      error: adminMessages.downloadUrlRequired,
    })
    expect((await manage({ ...base, price: 0 })).body).toEqual({
      success: false,
      error: adminMessages.downloadUrlRequired,
    })
    for (const broken of [
      { ...base, name: ' ' },
      { ...base, features: ['', ' '] },
      { ...base, price: -1 },
      { ...base, price: 1.005 },
      { ...base, image: 'javascript:alert(1)' },
      { ...base, download_url: 'javascript:alert(1)' },
    ]) {
      expect((await manage(broken)).status).toBe(400)
    }

    const added = await manage(base, { p_keys: 'KEY-1\nKEY-2\n\nKEY-1\n' })
    expect(added.body).toMatchObject({ success: true, keys_added: 2, key_stock: 2 })
    const id = added.body.product_id as number
    let listed = await rpc(t.app, 'fetch_products')
    let product = (listed.body.products as Record<string, unknown>[]).find((p) => p.id === id)
    expect(product).toMatchObject({
      name: base.name,
      description: base.description,
      price: 12.5,
      features: ['One', '<b>Two</b>'],
      video_id: null,
      download_url: null,
      is_free: false,
    })

    const free = await manage({ ...base, id, price: 30, is_free: true, download_url: ' /downloads/x.txt ' })
    expect(free.body).toMatchObject({ success: true, product_id: id })
    listed = await rpc(t.app, 'fetch_products')
    product = (listed.body.products as Record<string, unknown>[]).find((p) => p.id === id)
    expect(product).toMatchObject({ price: 0, is_free: true, download_url: '/downloads/x.txt' })

    const admin = await rpc(t.app, 'secure_fetch_admin_products', {}, as())
    expect(
      (admin.body.products as { id: number; key_stock: number }[]).find((p) => p.id === id),
    ).toMatchObject({
      key_stock: 2,
    })

    expect((await manage({ ...base, id: 99_999 })).body).toMatchObject({ success: false })
    const orderId = randomUUID()
    const snapshot = [{ product: { id, name: base.name, price_cents: 1250 }, quantity: 2 }]
    await t.database.db.insert(orders).values({
      id: orderId,
      email: 'keep@example.com',
      items: snapshot,
      totalCents: 2500,
      walletAddress: address(999),
      status: 'completed',
      windowEndsAt: new Date(),
      graceUntil: new Date(),
    })
    expect((await rpc(t.app, 'secure_delete_product', { p_product_id: id }, as())).body).toEqual({
      success: true,
    })
    listed = await rpc(t.app, 'fetch_products')
    expect((listed.body.products as { id: number }[]).some((p) => p.id === id)).toBe(false)
    const kept = await rpc(t.app, 'secure_fetch_order', { p_order_id: orderId }, as())
    // The snapshot outlives the product; the admin reads its price in dollars, as every answer does.
    expect((kept.body.order as { items: unknown }).items).toEqual([
      { product: { id, name: base.name, price: 12.5 }, quantity: 2 },
    ])
  })

  it('wallets: the textarea rules, lease state, removal rules and the low-free warning', async () => {
    const add = (p_addresses: unknown) => rpc(t.app, 'secure_add_wallet_addresses', { p_addresses }, as())
    expect((await add(' \n \n')).body).toEqual({
      success: false,
      added_count: 0,
      error: 'Please enter at least one wallet address',
    })
    const fake = `T${'1'.repeat(33)}`
    expect((await add(`${address(300)}\nshort\n${fake}`)).body).toEqual({
      success: false,
      added_count: 0,
      error: `Invalid wallet address format: short, ${fake}`,
    })
    const before = await rpc(t.app, 'secure_fetch_wallet_addresses', {}, as())
    expect(before.body.addresses).not.toContain(address(300))

    const fresh = [300, 301, 302, 303, 304, 305].map(address)
    expect((await add(` ${fresh.join(' \n')}\n\n${fresh[0]}`)).body).toEqual({
      success: true,
      added_count: 6,
    })
    expect((await add(fresh)).body).toEqual({ success: true, added_count: 0 })

    // Lease five of the six to pending orders: under 20 % free.
    await t.database.db.delete(walletAddresses).where(eq(walletAddresses.address, address(1)))
    const others = (await t.database.db.select().from(walletAddresses))
      .map((r) => r.address)
      .filter((a) => !fresh.includes(a))
    await rpc(t.app, 'secure_remove_wallet_addresses', { p_addresses: others }, as())
    for (const a of fresh.slice(0, 5)) {
      const orderId = await insertOrder(t, 500 + fresh.indexOf(a), 'pending')
      await t.database.db
        .update(walletAddresses)
        .set({ leasedOrderId: orderId })
        .where(eq(walletAddresses.address, a))
    }
    const list = await rpc(t.app, 'secure_fetch_wallet_addresses', {}, as())
    expect(list.body).toMatchObject({ free_count: 1, low_free: true })
    expect((list.body.details as { address: string; leased_order_id: string | null }[])[0]).toMatchObject({
      address: fresh[0],
      leased_order_id: expect.any(String),
    })

    const refused = await rpc(t.app, 'secure_remove_wallet_address', { p_address: fresh[0] }, as())
    expect(refused.body).toEqual({ success: false, error: adminMessages.addressInUse })
    const bulk = await rpc(
      t.app,
      'secure_remove_wallet_addresses',
      { p_addresses: [fresh[1], fresh[5]] },
      as(),
    )
    expect(bulk.body).toEqual({ success: false, removed_count: 1, in_use: [fresh[1]] })
    const single = await rpc(t.app, 'secure_remove_wallet_address', { p_address: fresh[5] }, as())
    expect(single.body).toMatchObject({ success: false })
  })

  it('content: a save is seen by the public call at once; bad content is refused', async () => {
    const { body } = await rpc(t.app, 'secure_fetch_site_content')
    const content = body.content as { hero: { title: string } }
    const next = { ...content, hero: { ...content.hero, title: '<script>alert(1)</script> New hero' } }
    expect((await rpc(t.app, 'secure_update_site_content', { p_content: next }, as())).body).toEqual({
      success: true,
    })
    const after = await rpc(t.app, 'secure_fetch_site_content')
    expect((after.body.content as typeof content).hero.title).toBe('<script>alert(1)</script> New hero')
    const bad = { ...next, hero: { ...next.hero, backgroundImage: 'javascript:alert(1)' } }
    expect((await rpc(t.app, 'secure_update_site_content', { p_content: bad }, as())).status).toBe(400)
  })

  it('credentials: the rules, and a change ends every other session', async () => {
    const other = await login(t)
    const change = (payload: Record<string, unknown>) =>
      rpc(t.app, 'secure_update_admin_credentials', payload, as())
    expect(
      (
        await change({
          p_current_password: PASSWORD,
          p_new_username: 'boss',
          p_new_password: 'new-password-1',
          p_confirm_password: 'new-password-2',
        })
      ).body,
    ).toEqual({ success: false, error: adminMessages.passwordsDoNotMatch })
    expect(
      (await change({ p_current_password: 'nope', p_new_username: 'boss', p_new_password: 'new-password-1' }))
        .body,
    ).toEqual({ success: false, error: adminMessages.currentPasswordIncorrect })
    expect(
      (
        await change({
          p_current_password: PASSWORD,
          p_new_username: 'boss',
          p_new_password: 'new-password-1',
          p_confirm_password: 'new-password-1',
        })
      ).body,
    ).toEqual({ success: true })

    expect((await rpc(t.app, 'secure_admin_session', {}, { cookie: other.cookie })).status).toBe(401)
    expect((await rpc(t.app, 'secure_admin_session', {}, as())).body).toEqual({
      success: true,
      username: 'boss',
    })
    const old = await rpc(t.app, 'secure_admin_login', { p_username: 'admin', p_password: PASSWORD })
    expect(old.body).toEqual({ success: false, error: adminMessages.invalidCredentials })
    const renewed = await login(t, 'boss', 'new-password-1')

    // Logout ends that session only.
    const out = await rpc(t.app, 'secure_admin_logout', {}, { cookie: renewed.cookie })
    expect(out.body).toEqual({ success: true })
    expect(String(out.headers['set-cookie'])).toMatch(new RegExp(`${SESSION_COOKIE}=;`))
    expect((await rpc(t.app, 'secure_admin_session', {}, { cookie: renewed.cookie })).status).toBe(401)
    expect((await rpc(t.app, 'secure_admin_session', {}, as())).status).toBe(200)

    // A session cannot be used to guess the password either.
    const guess = { p_current_password: 'guess', p_new_username: 'boss', p_new_password: 'new-password-2' }
    for (let i = 0; i < 5; i++) expect((await change(guess)).status).toBe(200)
    expect((await change(guess)).status).toBe(429)
  })
})

describe.each(engines)('admin user-agent allow-list on %s', (engine) => {
  let t: TestApp
  const allowed = { 'user-agent': 'Mozilla/5.0 AllowedDesk/1.0' }
  beforeAll(async () => {
    t = await createTestApp(engine, {
      ADMIN_PASSWORD: PASSWORD,
      ADMIN_ALLOWED_USER_AGENTS: 'AllowedDesk/1.0||OtherDesk/2',
      PUBLIC_URL: 'https://shop.example',
    })
    await ensureFirstAdmin(t.database.db, t.env)
  })
  afterAll(() => t.close())

  it('login from another browser is 403 Access denied; from an allowed one it works, with a Secure cookie', async () => {
    const refused = await rpc(t.app, 'secure_admin_login', { p_username: 'admin', p_password: PASSWORD })
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual({ success: false, error: 'Access denied' })
    const ok = await login(t, 'admin', PASSWORD, allowed)
    expect(ok.setCookie).toMatch(/Secure/)
  })

  it.each(adminCalls)(
    '%s with a disallowed user agent is 403, even with a session',
    async (name, payload) => {
      const { cookie } = await login(t, 'admin', PASSWORD, allowed)
      const res = await rpc(t.app, name, payload, { cookie, 'user-agent': 'curl/8.0' })
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ success: false, error: 'Access denied' })
    },
  )
})

describe('first admin', () => {
  it('with no password configured, one is generated, answered once, and logs in', async () => {
    const t = await createTestApp('pglite')
    try {
      const first = await ensureFirstAdmin(t.database.db, {
        ADMIN_USERNAME: 'owner',
        ADMIN_PASSWORD: undefined,
      })
      expect(first.created).toBe(true)
      expect(first.generatedPassword).toMatch(/^[\w-]{20,}$/)
      const again = await ensureFirstAdmin(t.database.db, {
        ADMIN_USERNAME: 'owner',
        ADMIN_PASSWORD: undefined,
      })
      expect(again.generatedPassword).toBeUndefined()
      await login(t, 'owner', first.generatedPassword)
      const [row] = await t.database.db.select().from(adminUsers)
      expect(row!.passwordHash).toMatch(/^scrypt\$/)
      expect(row!.passwordHash).not.toContain(first.generatedPassword!)
    } finally {
      await t.close()
    }
  })
})
