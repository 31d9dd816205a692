import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReceiver } from '../../../tests/support/http-receiver'
import { createPaymentFixture, type PaymentFixture } from '../../../tests/support/payment-fixture'
import { createTestApp } from '../../../tests/support/test-app'
import { engines, pgliteOnly } from '../../../tests/support/test-db'
import { waitFor } from '../../../tests/support/wait'
import { createWebhookWorker, type WebhookWorker } from '../webhooks/delivery-worker'
import { createFiatRateSource } from './epusdt-rate'

// The epusdt order protocol through real HTTP on each engine: requests signed as epusdt's clients
// sign them (the signer below is written from the vendor's published algorithm, checked against
// its published example, and shares no code with the shop's), the fiat amount converted at the
// locked rate, and an order paid on the TRON devchain whose callback a local HTTP receiver checks
// (body and signature) while answering something other than ok until the third try.

const TOKEN = 'epusdt-shared-token-for-tests'

/** A cart's signer, as the vendor documents it: non-empty values, sorted by name, key=value&…, token appended, MD5. */
function cartSigns(params: Record<string, string | number>, token: string): string {
  const text = Object.keys(params)
    .filter((k) => k !== 'signature' && params[k] !== '' && params[k] !== undefined)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&')
  return createHash('md5')
    .update(text + token)
    .digest('hex')
}

describe('the test signer', () => {
  it("matches the vendor's published example", () => {
    const params = {
      order_id: '20220201030210321',
      amount: 42,
      notify_url: 'http://example.com/notify',
      redirect_url: 'http://example.com/redirect',
    }
    expect(cartSigns(params, 'epusdt_password_xasddawqe')).toBe('1cd4b52df5587cfb1968b0c0c6e156cd')
  })
})

describe.each(engines)('epusdt create-transaction on %s', (engine) => {
  let f: PaymentFixture
  let worker: WebhookWorker
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let orderSeq = 0

  const post = async (body: unknown, contentType = 'application/json') => {
    const response = await f.t.app.inject({
      method: 'POST',
      url: '/api/v1/order/create-transaction',
      payload: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': contentType },
    })
    return { status: response.statusCode, raw: response.body, body: response.json() }
  }
  const signed = (params: Record<string, string | number>, token = TOKEN) => ({
    ...params,
    signature: cartSigns(params, token),
  })
  const request = (extra: Record<string, string | number> = {}) => ({
    order_id: `dj-${++orderSeq}`,
    amount: 72,
    notify_url: `${receiver.url}/notify`,
    redirect_url: 'https://seller.example/thanks',
    trade_type: 'usdt.trc20',
    timeout: 1200,
    ...extra,
  })
  const count = async (table: 'invoices' | 'orders') =>
    Number((await f.rows(sql`select count(*)::int as n from ${sql.identifier(table)}`))[0]?.n)

  beforeAll(async () => {
    let hits = 0
    receiver = await startReceiver((_req, res) => {
      hits++
      // First a failure, then a 200 that is not the word, then ok.
      res.statusCode = hits === 1 ? 503 : 200
      res.end(hits === 1 ? 'busy' : hits === 2 ? 'received' : 'ok')
    })
    f = await createPaymentFixture(engine, {
      env: {
        PUBLIC_URL: 'https://shop.test',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        EPUSDT_TOKEN: TOKEN,
        EPUSDT_FIAT: 'CNY',
        EPUSDT_RATE: 'fixed:7.2',
      },
    })
    worker = createWebhookWorker({
      db: f.t.database.db,
      allowPrivate: true,
      epusdtToken: TOKEN,
      backoffBaseMs: 10,
    })
  })
  afterAll(async () => {
    await f?.close()
    await receiver?.close()
  })

  it('a signed request makes an order of the fiat amount at the locked rate; a retry answers it', async () => {
    const params = request()
    const res = await post(signed(params))
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status_code: 200, message: 'success' })
    expect(typeof res.body.request_id).toBe('string')
    const data = res.body.data
    // 72 CNY at 7.2 CNY per USDT: 10 USDT, written as epusdt writes it (a JSON number).
    expect(data).toMatchObject({ order_id: params.order_id, amount: 72, actual_amount: 10 })
    expect(res.raw).toContain('"actual_amount":10,')
    const [order] = await f.rows(
      sql`select o.wallet_address, o.total_cents, o.chain, o.token, o.window_ends_at, o.items
          from orders o join invoices i on i.order_id = o.id where i.id = ${data.trade_id}`,
    )
    expect(order).toMatchObject({ wallet_address: data.token, chain: 'tron', token: 'USDT' })
    expect(Number(order?.total_cents)).toBe(1000)
    expect(data.expiration_time).toBe(Math.floor(new Date(order?.window_ends_at as string).getTime() / 1000))
    expect(Math.abs(data.expiration_time - (Date.now() / 1000 + 1200))).toBeLessThan(30)
    expect(data.payment_url).toBe(`https://shop.test/invoice/${data.trade_id}`)

    // The same order_id while open: the same order, no second address.
    const orders = await count('orders')
    const again = await post(signed(params))
    expect(again.body.data).toEqual(data)
    expect(await count('orders')).toBe(orders)

    // Rounded up to the cent: 28.88 / 7.2 = 4.0111… → 4.02, and the rate is the order's from now on.
    const odd = await post(signed(request({ amount: '28.88' })))
    expect(odd.body.data).toMatchObject({ amount: 28.88, actual_amount: 4.02 })
  })

  it('a form-encoded request is read and signed the same way', async () => {
    const params = request({ amount: '14.40' })
    const form = new URLSearchParams(
      Object.entries(signed(params)).map(([k, v]) => [k, String(v)]),
    ).toString()
    const res = await post(form, 'application/x-www-form-urlencoded')
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ amount: 14.4, actual_amount: 2 })
  })

  it('a wrong, missing or forged signature is refused and creates nothing', async () => {
    const before = [await count('orders'), await count('invoices')]
    const params = request()
    const cases = [
      { ...params },
      { ...params, signature: '' },
      { ...params, signature: 'not-a-signature' },
      signed(params, 'another-token-of-sixteen'),
      { ...signed(params), amount: 7200 },
      { ...signed(params), extra: 'added after signing' },
      {
        ...signed(params),
        signature: cartSigns(params, TOKEN).replace(/.$/, (c) => (c === '0' ? '1' : '0')),
      },
    ]
    for (const body of cases) {
      const res = await post(body)
      expect(res.status, JSON.stringify(body)).toBe(401)
      expect(res.body).toMatchObject({ status_code: 401, message: 'signature check failed', data: null })
    }
    // A value epusdt cannot sign (not a string or number) cannot carry a valid signature.
    const withBool = { ...signed(params), flag: true }
    expect((await post(withBool)).status).toBe(401)
    expect([await count('orders'), await count('invoices')]).toEqual(before)
  })

  it('bad fields are refused in the envelope, naming the field, never a 5xx, nothing made', async () => {
    const before = [await count('orders'), await count('invoices')]
    const refusals: [Record<string, string | number>, number, string][] = [
      [request({ amount: 'abc' }), 400, 'amount'],
      [request({ amount: 0 }), 400, 'amount'],
      [request({ amount: '1.123456789' }), 400, 'amount'],
      [request({ amount: '999999999999' }), 400, 'amount'],
      [request({ notify_url: 'ftp://seller.example/n' }), 400, 'notify_url'],
      [request({ notify_url: 'not a url' }), 400, 'notify_url'],
      [request({ redirect_url: 'javascript:alert(1)' }), 400, 'redirect_url'],
      [request({ trade_type: 'btc.bitcoin' }), 400, 'trade_type'],
      [request({ timeout: 5 }), 400, 'timeout'],
      [request({ timeout: 999999 }), 400, 'timeout'],
      [request({ order_id: 'x'.repeat(65) }), 400, 'order_id'],
      [request({ order_id: 'a\u0000b' }), 400, 'order_id'],
      [request({ order_id: 'a\u0007b' }), 400, 'order_id'],
    ]
    for (const [params, status, field] of refusals) {
      const res = await post(signed(params))
      expect(res.status, JSON.stringify(params)).toBe(status)
      expect(res.body.message).toContain(field)
      expect(res.body.data).toBeNull()
    }
    for (const raw of ['[]', '"text"', '{not json', '']) {
      const res = await post(raw)
      expect(res.status, raw).toBeGreaterThanOrEqual(400)
      expect(res.status, raw).toBeLessThan(500)
      expect(res.body).toHaveProperty('status_code')
    }
    expect([await count('orders'), await count('invoices')]).toEqual(before)
  })

  it('paid on the devchain: the callback is signed, repeated until the seller answers ok; the order_id is then refused', async () => {
    const params = request({ amount: 36 })
    const made = (await post(signed(params))).body.data
    expect(made.actual_amount).toBe(5)
    const sent = await f.pay({ to: made.token, amount: '5' })
    expect((await f.order(await orderIdOf(made.trade_id))).status).toBe('paid')

    await waitFor('the seller to answer ok', async () => {
      await worker.drain()
      return receiver.received.filter((r) => r.url === '/notify').length >= 3
    })
    await worker.drain()
    const hits = receiver.received.filter((r) => r.url === '/notify')
    expect(hits).toHaveLength(3)
    // The same callback each time, as JSON, amounts as numbers, signed as the vendor signs.
    for (const hit of hits) expect(hit.body).toBe(hits[0]?.body)
    expect(hits[0]?.headers['content-type']).toContain('application/json')
    const body = JSON.parse(hits[0]?.body as string)
    expect(body).toEqual({
      trade_id: made.trade_id,
      order_id: params.order_id,
      amount: 36,
      actual_amount: 5,
      token: made.token,
      block_transaction_id: sent.txId,
      signature: expect.stringMatching(/^[0-9a-f]{32}$/),
      status: 2,
    })
    expect(body.signature).toBe(cartSigns(body, TOKEN))
    expect(body.signature).not.toBe(cartSigns(body, 'another-token-of-sixteen'))
    const [delivery] = await f.rows(
      sql`select d.status, d.attempts from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
          where e.kind = 'epusdt' and d.body like ${`%${made.trade_id}%`}`,
    )
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3 })

    // Ended: the same order_id is refused, and never makes a second order.
    const again = await post(signed(params))
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ status_code: 10002 })
  })

  const orderIdOf = async (invoiceId: string) =>
    (await f.rows(sql`select order_id from invoices where id = ${invoiceId}`))[0]?.order_id as string
})

describe.each(pgliteOnly)('epusdt switched off on %s', (engine) => {
  it('is off by default: the route answers 404 in its envelope', async () => {
    const t = await createTestApp(engine)
    try {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/order/create-transaction',
        payload: { order_id: '1', amount: 1, notify_url: 'https://seller.example/n', signature: 'x' },
      })
      expect(response.statusCode).toBe(404)
      expect(response.json()).toMatchObject({ status_code: 404, data: null })
    } finally {
      await t.close()
    }
  })
})

describe('the rate taken from the price source', () => {
  it('reads the tether price in the fiat, and answers a failure without a rate', async () => {
    const source = await startReceiver((req, res) => {
      res.setHeader('content-type', 'application/json')
      res.end(req.url?.includes('vs_currencies=cny') ? '{"tether":{"cny":7.1234}}' : '{"tether":{}}')
    })
    try {
      const cny = createFiatRateSource({ setting: 'coingecko', fiat: 'CNY', baseUrl: source.url })
      expect(await cny.getRate()).toMatchObject({ ok: true, rate: '7.1234', rateE8: 712_340_000n })
      const eur = createFiatRateSource({ setting: 'coingecko', fiat: 'EUR', baseUrl: source.url })
      expect(await eur.getRate()).toMatchObject({ ok: false })
      const fixed = createFiatRateSource({ setting: 'fixed:7.2', fiat: 'CNY' })
      expect(await fixed.getRate()).toMatchObject({ ok: true, rateE8: 720_000_000n })
    } finally {
      await source.close()
    }
  })
})
