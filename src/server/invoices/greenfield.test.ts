import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPaymentFixture, type PaymentFixture } from '../../../tests/support/payment-fixture'
import { adminSession, createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import {
  invoiceDataSchema,
  invoicePaymentMethodSchema,
  MAX_EXPIRATION_MINUTES,
  problemDetailsSchema,
  validationProblemSchema,
} from './greenfield-schemas'

// The Greenfield invoice API through real HTTP (app.inject) on each engine, its answers checked
// against our schemas of BTCPay's published field names and types (no client written by BTCPay
// for Greenfield is on npm), and invoices paid on the TRON devchain through the shop's own follower.

const PASSWORD = 'invoice-api-admin-password'
const ALL_SCOPES = [
  'btcpay.store.cancreateinvoice',
  'btcpay.store.canviewinvoices',
  'btcpay.store.canmodifyinvoices',
]

const strictInvoice = invoiceDataSchema.strict()

describe.each(engines)('Greenfield invoices on %s', (engine) => {
  let f: PaymentFixture
  let admin: Record<string, string>
  let key: string
  let storeId: string

  const api = async (method: 'GET' | 'POST', url: string, body?: unknown, token: string | null = key) => {
    const response = await f.t.app.inject({
      method,
      url,
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `token ${token}` } : {}),
      },
    })
    return { status: response.statusCode, body: response.body === '' ? null : response.json() }
  }
  const createInvoice = async (body: unknown) => {
    const res = await api('POST', `/api/v1/stores/${storeId}/invoices`, body)
    if (res.status !== 200) throw new Error(`invoice refused: ${JSON.stringify(res.body)}`)
    return strictInvoice.parse(res.body)
  }
  const getInvoice = async (id: string) =>
    strictInvoice.parse((await api('GET', `/api/v1/stores/${storeId}/invoices/${id}`)).body)
  const orderOf = async (invoiceId: string) => {
    const [row] = await f.rows(
      sql`select o.* from orders o join invoices i on i.order_id = o.id where i.id = ${invoiceId}`,
    )
    if (!row) throw new Error(`no order for invoice ${invoiceId}`)
    return row as { id: string; wallet_address: string; status: string; email: string; total_cents: string }
  }
  const count = async (table: 'invoices' | 'orders') =>
    Number((await f.rows(sql`select count(*)::int as n from ${sql.identifier(table)}`))[0]?.n)

  beforeAll(async () => {
    f = await createPaymentFixture(engine, {
      env: { ADMIN_PASSWORD: PASSWORD, PUBLIC_URL: 'https://shop.test' },
    })
    admin = await adminSession(f.t)
    const made = await rpc(
      f.t.app,
      'secure_create_api_key',
      {
        p_current_password: PASSWORD,
        p_label: 'Test cart',
        p_scopes: ALL_SCOPES,
      },
      admin,
    )
    expect(made.body.success).toBe(true)
    key = made.body.key as string
    const listed = await rpc(f.t.app, 'secure_fetch_api_keys', {}, admin)
    storeId = listed.body.store_id as string
  })
  afterAll(async () => {
    await f?.close()
  })

  it('keys: made with the password only, shown once, kept as a hash, audited, revoked', async () => {
    const wrong = await rpc(
      f.t.app,
      'secure_create_api_key',
      {
        p_current_password: 'not-it',
        p_label: 'X',
        p_scopes: ALL_SCOPES,
      },
      admin,
    )
    expect(wrong.body.success).toBe(false)
    const listed = await rpc(f.t.app, 'secure_fetch_api_keys', {}, admin)
    const keys = listed.body.keys as { id: number; prefix: string; label: string }[]
    expect(keys).toHaveLength(1)
    expect(key.startsWith(keys[0]?.prefix as string)).toBe(true)
    expect(JSON.stringify(listed.body)).not.toContain(key)
    const stored = await f.rows(sql`select key_hash from api_keys`)
    expect(JSON.stringify(stored)).not.toContain(key)
    expect(storeId).toMatch(/^[0-9a-f]{32}$/)

    // A second key with only the view scope, revoked later.
    const viewer = await rpc(
      f.t.app,
      'secure_create_api_key',
      {
        p_current_password: PASSWORD,
        p_label: 'Viewer',
        p_scopes: ['btcpay.store.canviewinvoices'],
      },
      admin,
    )
    const viewerKey = viewer.body.key as string
    const refused = await api('POST', `/api/v1/stores/${storeId}/invoices`, { amount: '5' }, viewerKey)
    expect(refused.status).toBe(403)
    expect(problemDetailsSchema.parse(refused.body).code).toBe('missing-permission')
    expect(refused.body.message).toContain('btcpay.store.cancreateinvoice')
    expect((await api('GET', `/api/v1/stores/${storeId}/invoices`, undefined, viewerKey)).status).toBe(200)

    const noPassword = await rpc(
      f.t.app,
      'secure_revoke_api_key',
      {
        p_current_password: 'nope',
        p_id: viewer.body.id,
      },
      admin,
    )
    expect(noPassword.body.success).toBe(false)
    const revoked = await rpc(
      f.t.app,
      'secure_revoke_api_key',
      {
        p_current_password: PASSWORD,
        p_id: viewer.body.id,
      },
      admin,
    )
    expect(revoked.body.success).toBe(true)
    const after = await api('GET', `/api/v1/stores/${storeId}/invoices`, undefined, viewerKey)
    expect(after.status).toBe(401)
    expect(problemDetailsSchema.parse(after.body).code).toBe('unauthenticated')

    const audit = await f.rows(
      sql`select action, details from audit_log where action like 'api_key%' order by id`,
    )
    expect(audit.map((a) => a.action)).toEqual(['api_key_create', 'api_key_create', 'api_key_revoke'])
    expect(JSON.stringify(audit)).not.toContain(key)
  })

  it('refuses a missing or wrong key (401), another store (404), in Greenfield shapes', async () => {
    for (const token of [null, 'sc_wrong']) {
      const res = await api('GET', `/api/v1/stores/${storeId}/invoices`, undefined, token)
      expect(res.status).toBe(401)
      expect(problemDetailsSchema.strict().parse(res.body).code).toBe('unauthenticated')
    }
    const other = await api('GET', '/api/v1/stores/not-this-store/invoices')
    expect(other.status).toBe(404)
    expect(problemDetailsSchema.parse(other.body).code).toBe('store-not-found')
    const missing = await api('GET', `/api/v1/stores/${storeId}/invoices/${'x'.repeat(22)}`)
    expect(missing.status).toBe(404)
    expect(problemDetailsSchema.parse(missing.body).code).toBe('invoice-not-found')
    const current = await api('GET', '/api/v1/api-keys/current')
    expect(current.body.permissions).toContain(`btcpay.store.cancreateinvoice:${storeId}`)
  })

  it('creates an invoice: an order with its own address, New, with the fields Greenfield gives', async () => {
    const before = await count('orders')
    const invoice = await createInvoice({
      amount: '12.50',
      currency: 'usd',
      metadata: {
        orderId: 'woo-1001',
        buyerEmail: 'buyer@example.com',
        itemDesc: 'Pro licence',
        custom: { a: 1 },
      },
      checkout: {
        redirectURL: 'https://seller.test/thanks/{OrderId}',
        defaultLanguage: 'zh-CN',
        expirationMinutes: 20,
      },
    })
    expect(invoice).toMatchObject({
      storeId,
      amount: '12.50',
      currency: 'USD',
      type: 'Standard',
      status: 'New',
      additionalStatus: 'None',
      checkoutLink: `https://shop.test/invoice/${invoice.id}`,
      metadata: { orderId: 'woo-1001', buyerEmail: 'buyer@example.com', custom: { a: 1 } },
      archived: false,
      availableStatusesForManualMarking: ['Settled', 'Invalid'],
    })
    expect(invoice.checkout.redirectURL).toBe('https://seller.test/thanks/{OrderId}')
    expect(invoice.checkout.paymentMethods).toEqual(['USDT-TRON'])
    expect(invoice.expirationTime - invoice.createdTime).toBeGreaterThanOrEqual(20 * 60 - 1)
    expect(invoice.expirationTime - invoice.createdTime).toBeLessThanOrEqual(20 * 60 + 1)
    const order = await orderOf(invoice.id)
    expect(order).toMatchObject({ status: 'pending', email: 'buyer@example.com', locale: 'zh' })
    expect(Number(order.total_cents)).toBe(1250)
    expect(await count('orders')).toBe(before + 1)

    // The same orderId again while it is open: the same invoice, no second address.
    const again = await createInvoice({ amount: '12.50', metadata: { orderId: 'woo-1001' } })
    expect(again.id).toBe(invoice.id)
    expect(await count('orders')).toBe(before + 1)

    const methods = await api('GET', `/api/v1/stores/${storeId}/invoices/${invoice.id}/payment-methods`)
    const [method] = invoicePaymentMethodSchema.strict().array().parse(methods.body)
    expect(method).toMatchObject({
      paymentMethod: 'USDT-TRON',
      destination: order.wallet_address,
      amount: '12.50',
      due: '12.50',
      totalPaid: '0.00',
      payments: [],
    })
  })

  it('bad input: a 400 naming the field, in Greenfield validation shape, and nothing created', async () => {
    const orders = await count('orders')
    const invoices = await count('invoices')
    const cases: [unknown, string][] = [
      [{ amount: '10', currency: 'EUR' }, 'currency'],
      [{ amount: 'ten' }, 'amount'],
      [{ amount: '10.001' }, 'amount'],
      [{ amount: -5 }, 'amount'],
      [{ amount: '999999999999' }, 'amount'],
      [{}, 'amount'],
      [{ amount: '10', metadata: { buyerEmail: 'not-an-email' } }, 'metadata.buyerEmail'],
      [{ amount: '10', metadata: { orderId: 'x'.repeat(101) } }, 'metadata.orderId'],
      [{ amount: '10', metadata: { blob: 'x'.repeat(20_000) } }, 'metadata'],
      [{ amount: '10', checkout: { redirectURL: 'javascript:alert(1)' } }, 'checkout.redirectURL'],
      [{ amount: '10', checkout: { expirationMinutes: 100_000 } }, 'checkout.expirationMinutes'],
      [{ amount: '10', checkout: { paymentMethods: ['BTC-CHAIN'] } }, 'checkout.paymentMethods'],
    ]
    for (const [body, path] of cases) {
      const res = await api('POST', `/api/v1/stores/${storeId}/invoices`, body)
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      const issues = validationProblemSchema.parse(res.body)
      expect(issues.map((i) => i.path)).toContain(path)
    }
    const eur = await api('POST', `/api/v1/stores/${storeId}/invoices`, { amount: '10', currency: 'EUR' })
    expect(eur.body[0].message).toMatch(/EUR is not accepted.*USD/)
    for (const raw of ['{not json', '[1,2]', 'null']) {
      const res = await api('POST', `/api/v1/stores/${storeId}/invoices`, raw)
      expect(res.status).toBe(400)
      expect(problemDetailsSchema.parse(res.body).message.length).toBeGreaterThan(0)
    }
    const badQuery = await api('GET', `/api/v1/stores/${storeId}/invoices?take=100000&status=Paid`)
    expect(badQuery.status).toBe(400)
    expect(validationProblemSchema.parse(badQuery.body).map((i) => i.path)).toEqual(
      expect.arrayContaining(['take', 'status']),
    )
    expect(await count('orders')).toBe(orders)
    expect(await count('invoices')).toBe(invoices)
  })

  it('paid on the devchain: partial → New/PaidPartial, the rest → Settled; over → PaidOver', async () => {
    const invoice = await createInvoice({ amount: '20.00', metadata: { orderId: 'woo-2001' } })
    const order = await orderOf(invoice.id)
    await f.pay({ to: order.wallet_address, amount: '5.00' })
    expect(await getInvoice(invoice.id)).toMatchObject({ status: 'New', additionalStatus: 'PaidPartial' })
    await f.pay({ to: order.wallet_address, amount: '15.00' })
    expect(await getInvoice(invoice.id)).toMatchObject({
      status: 'Settled',
      additionalStatus: 'None',
      availableStatusesForManualMarking: [],
    })
    const methods = await api('GET', `/api/v1/stores/${storeId}/invoices/${invoice.id}/payment-methods`)
    const [method] = invoicePaymentMethodSchema.array().parse(methods.body)
    expect(method?.totalPaid).toBe('20.00')
    expect(method?.due).toBe('0.00')
    expect(method?.payments.map((p) => [p.value, p.status])).toEqual([
      ['5.00', 'Settled'],
      ['15.00', 'Settled'],
    ])
    // Paid: the same orderId now makes a new invoice.
    const next = await createInvoice({ amount: '20.00', metadata: { orderId: 'woo-2001' } })
    expect(next.id).not.toBe(invoice.id)

    const over = await createInvoice({ amount: '3.00' })
    await f.pay({ to: (await orderOf(over.id)).wallet_address, amount: '4.00' })
    expect(await getInvoice(over.id)).toMatchObject({ status: 'Settled', additionalStatus: 'PaidOver' })
  })

  it('paid after its window, in the grace time: Expired, then Settled/PaidLate', async () => {
    const invoice = await createInvoice({ amount: '7.00' })
    const order = await orderOf(invoice.id)
    // The window ended a minute ago (the grace time goes on).
    await f.t.database.db.execute(
      sql`update orders set window_ends_at = now() - interval '1 minute' where id = ${order.id}`,
    )
    expect(await getInvoice(invoice.id)).toMatchObject({ status: 'Expired', additionalStatus: 'None' })
    await f.pay({ to: order.wallet_address, amount: '7.00' })
    expect(await getInvoice(invoice.id)).toMatchObject({ status: 'Settled', additionalStatus: 'PaidLate' })
  })

  it('the operator marks invoices invalid or settled, through the one path of the order', async () => {
    const a = await createInvoice({ amount: '2.00' })
    const invalid = await api('POST', `/api/v1/stores/${storeId}/invoices/${a.id}/status`, {
      status: 'Invalid',
    })
    expect(strictInvoice.parse(invalid.body)).toMatchObject({ status: 'Invalid', additionalStatus: 'Marked' })
    expect((await orderOf(a.id)).status).toBe('cancelled')

    const b = await createInvoice({ amount: '2.00' })
    const settled = await api('POST', `/api/v1/stores/${storeId}/invoices/${b.id}/status`, {
      status: 'Settled',
    })
    expect(strictInvoice.parse(settled.body)).toMatchObject({ status: 'Settled', additionalStatus: 'Marked' })
    expect((await orderOf(b.id)).status).toBe('paid')

    const again = await api('POST', `/api/v1/stores/${storeId}/invoices/${b.id}/status`, {
      status: 'Invalid',
    })
    expect(again.status).toBe(400)
    expect(problemDetailsSchema.parse(again.body).code).toBe('invoice-not-markable')
    const wrong = await api('POST', `/api/v1/stores/${storeId}/invoices/${b.id}/status`, { status: 'Paid' })
    expect(wrong.status).toBe(400)
    expect(validationProblemSchema.parse(wrong.body)[0]?.path).toBe('status')
  })

  it('lists invoices newest first, by orderId, status and page', async () => {
    const list = async (query: string) =>
      strictInvoice.array().parse((await api('GET', `/api/v1/stores/${storeId}/invoices?${query}`)).body)
    const all = await list('')
    expect(all.length).toBeGreaterThanOrEqual(7)
    const times = all.map((i) => i.createdTime)
    expect([...times].sort((x, y) => y - x)).toEqual(times)
    expect((await list('orderId=woo-1001')).map((i) => i.metadata.orderId)).toEqual(['woo-1001'])
    expect((await list('orderId=woo-1001&orderId=woo-2001')).length).toBe(3)
    const settled = await list('status=Settled')
    expect(settled.length).toBeGreaterThanOrEqual(4)
    expect(settled.every((i) => i.status === 'Settled')).toBe(true)
    const page = await list('status=Settled&skip=1&take=2')
    expect(page.map((i) => i.id)).toEqual(settled.slice(1, 3).map((i) => i.id))
    expect((await list('take=2&skip=1')).map((i) => i.id)).toEqual(all.slice(1, 3).map((i) => i.id))
    const future = Math.floor(Date.now() / 1000) + 3600
    expect(await list(`startDate=${future}`)).toEqual([])
  })
})

describe.each(engines)('the API document and rate limits on %s', (engine) => {
  let t: TestApp
  let key: string
  beforeAll(async () => {
    t = await createTestApp(engine, {
      ADMIN_PASSWORD: PASSWORD,
      API_RATE_PER_KEY: '3',
      API_RATE_PER_CLIENT: '6',
    })
    const admin = await adminSession(t)
    const made = await rpc(
      t.app,
      'secure_create_api_key',
      { p_current_password: PASSWORD, p_label: 'Limited', p_scopes: ['btcpay.store.canviewinvoices'] },
      admin,
    )
    key = made.body.key as string
  })
  afterAll(async () => {
    await t?.close()
  })

  it('serves /api/v1/openapi.json without a key, generated from the request schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })
    expect(res.statusCode).toBe(200)
    const doc = res.json()
    expect(doc.openapi).toBe('3.0.3')
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/stores/{storeId}/invoices',
        '/api/v1/stores/{storeId}/invoices/{invoiceId}/payment-methods',
      ]),
    )
    const create = doc.components.schemas.CreateInvoiceRequest
    expect(create.required).toEqual(['amount'])
    expect(create.properties.checkout.properties.expirationMinutes.maximum).toBe(MAX_EXPIRATION_MINUTES)
    expect(create.properties.metadata.properties.orderId.maxLength).toBe(100)
    expect(doc.components.schemas.InvoiceData.properties.status.enum).toEqual([
      'New',
      'Processing',
      'Expired',
      'Invalid',
      'Settled',
    ])
  })

  it('limits calls per key, then per client, with a 429 in Greenfield shape', async () => {
    const call = (token: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/v1/api-keys/current',
        headers: { authorization: `token ${token}` },
      })
    for (let i = 0; i < 3; i++) expect((await call(key)).statusCode).toBe(200)
    const limited = await call(key)
    expect(limited.statusCode).toBe(429)
    expect(limited.headers['retry-after']).toBeDefined()
    expect(problemDetailsSchema.parse(limited.json()).code).toBe('rate-limited')
    // Guessing keys from one client: its own limit (6 a minute) ends it.
    const guesses = []
    for (let i = 0; i < 3; i++) guesses.push((await call(`sc_guess${i}`)).statusCode)
    expect(guesses).toEqual([401, 401, 429])
  })
})
