import { createHmac, timingSafeEqual } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReceiver } from '../../../tests/support/http-receiver'
import { createPaymentFixture, type PaymentFixture } from '../../../tests/support/payment-fixture'
import { adminSession, rpc } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { waitFor } from '../../../tests/support/wait'
import { createSightingWatcher, type SightingWatcher } from '../chains/sighting-watcher'
import { createTronChain, tronPoolOf } from '../chains/tron/tron-chain'
import { createWebhookWorker, type WebhookWorker } from '../webhooks/delivery-worker'
import { verifySignature } from '../webhooks/signature'
import { invoiceDataSchema, problemDetailsSchema } from './greenfield-schemas'

// Greenfield webhooks through real HTTP: registered through the API, an invoice paid on the TRON
// devchain (seen at the head, then final), the worker posting to a local receiver that checks
// BTCPay-Sig exactly as BTCPay's clients do: sha256= and the hex HMAC-SHA256 of the raw body.

const PASSWORD = 'invoice-webhooks-admin-password'

/** A BTCPay client's check of a webhook: HMAC-SHA256 of the raw body with the secret, compared in constant time. */
function btcpayClientVerifies(secret: string, rawBody: string, header: string | undefined): boolean {
  if (!header?.startsWith('sha256=')) return false
  const expected = Buffer.from(createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex'))
  const given = Buffer.from(header.slice('sha256='.length))
  return expected.length === given.length && timingSafeEqual(expected, given)
}

describe.each(engines)('Greenfield webhooks on %s', (engine) => {
  let f: PaymentFixture
  let key: string
  let storeId: string
  let watcher: SightingWatcher
  let worker: WebhookWorker
  let answer = 200
  let receiver: Awaited<ReturnType<typeof startReceiver>>

  const api = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => {
    const response = await f.t.app.inject({
      method,
      url,
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      headers: {
        authorization: `token ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
    })
    return { status: response.statusCode, body: response.body === '' ? null : response.json() }
  }
  const invoice = async (id: string) =>
    invoiceDataSchema.parse((await api('GET', `/api/v1/stores/${storeId}/invoices/${id}`)).body)

  beforeAll(async () => {
    receiver = await startReceiver((_req, res) => {
      res.statusCode = answer
      res.end(answer === 200 ? 'ok' : 'busy')
    })
    f = await createPaymentFixture(engine, {
      env: { ADMIN_PASSWORD: PASSWORD, WEBHOOK_ALLOW_PRIVATE: 'true', PUBLIC_URL: 'https://shop.test' },
    })
    const admin = await adminSession(f.t)
    const made = await rpc(
      f.t.app,
      'secure_create_api_key',
      {
        p_current_password: PASSWORD,
        p_label: 'Cart',
        p_scopes: [
          'btcpay.store.cancreateinvoice',
          'btcpay.store.canviewinvoices',
          'btcpay.store.canmodifyinvoices',
          'btcpay.store.webhooks.canmodifywebhooks',
        ],
      },
      admin,
    )
    key = made.body.key as string
    storeId = (await rpc(f.t.app, 'secure_fetch_api_keys', {}, admin)).body.store_id as string
    watcher = createSightingWatcher({
      db: f.t.database.db,
      chain: createTronChain({
        pool: tronPoolOf(f.t.app.services.chains.require('tron')),
        blockIntervalMs: 100,
      }),
      blockIntervalMs: 100,
    })
    worker = createWebhookWorker({ db: f.t.database.db, allowPrivate: true, backoffBaseMs: 10 })
  })
  afterAll(async () => {
    await f?.close()
    await receiver?.close()
  })

  it('New → Processing → Settled: each event once, in order, signed as BTCPay signs', async () => {
    const hook = await api('POST', `/api/v1/stores/${storeId}/webhooks`, { url: `${receiver.url}/btcpay` })
    expect(hook.status).toBe(200)
    expect(hook.body).toMatchObject({
      enabled: true,
      automaticRedelivery: true,
      url: `${receiver.url}/btcpay`,
      authorizedEvents: { everything: true },
    })
    const secret = hook.body.secret as string
    // The shop's own order.* endpoint goes on as before.
    await f.rows(
      sql`insert into webhook_endpoints (url, events, secret) values (${`${receiver.url}/shop`}, '["order.paid"]'::jsonb, 'whsec_shop')`,
    )

    const created = await api('POST', `/api/v1/stores/${storeId}/invoices`, {
      amount: '9.99',
      metadata: { orderId: 'woo-77' },
    })
    const id = created.body.id as string
    expect((await invoice(id)).status).toBe('New')
    const [order] = await f.rows(
      sql`select o.wallet_address from orders o join invoices i on i.order_id = o.id where i.id = ${id}`,
    )
    const address = order?.wallet_address as string

    const sent = await f.send({ to: address, amount: '9.99' })
    f.chain.mine(1)
    await waitFor('the invoice processing', async () => {
      await watcher.runOnce()
      return (await invoice(id)).status === 'Processing'
    })
    await watcher.runOnce()
    await f.settle(sent.block)
    expect(await invoice(id)).toMatchObject({ status: 'Settled', additionalStatus: 'None' })

    await worker.drain()
    const btcpay = receiver.received.filter((r) => r.url === '/btcpay')
    expect(btcpay.map((r) => JSON.parse(r.body).type)).toEqual([
      'InvoiceCreated',
      'InvoiceReceivedPayment',
      'InvoiceProcessing',
      'InvoiceSettled',
    ])
    for (const hit of btcpay) {
      expect(btcpayClientVerifies(secret, hit.body, hit.headers['btcpay-sig'] as string)).toBe(true)
      expect(btcpayClientVerifies(secret, `${hit.body} `, hit.headers['btcpay-sig'] as string)).toBe(false)
      const body = JSON.parse(hit.body)
      expect(body).toMatchObject({
        webhookId: hook.body.id,
        isRedelivery: false,
        storeId,
        invoiceId: id,
        metadata: { orderId: 'woo-77' },
      })
      expect(body.originalDeliveryId).toBe(body.deliveryId)
      expect(Number.isInteger(body.timestamp)).toBe(true)
    }
    expect(JSON.parse(btcpay[1]?.body as string).afterExpiration).toBe(false)
    expect(JSON.parse(btcpay[2]?.body as string).overPaid).toBe(false)
    expect(JSON.parse(btcpay[3]?.body as string).manuallyMarked).toBe(false)
    // The shop's endpoint: order.paid only, its own signature; no Greenfield event reaches it.
    const shop = receiver.received.filter((r) => r.url === '/shop')
    expect(shop.map((r) => JSON.parse(r.body).type)).toEqual(['order.paid'])
    expect(
      verifySignature(
        'whsec_shop',
        shop[0]?.body as string,
        shop[0]?.headers['stablecart-signature'] as string,
      ),
    ).toBe(true)
    // Nothing more is sent: each event went once.
    await worker.drain()
    expect(receiver.received.filter((r) => r.url === '/btcpay')).toHaveLength(4)
  })

  it('a refused delivery is retried with the back-off, logged, and can be redelivered', async () => {
    const hooks = (await api('GET', `/api/v1/stores/${storeId}/webhooks`)).body as { id: string }[]
    const webhookId = hooks[0]?.id as string
    answer = 503
    const before = receiver.received.length
    const created = await api('POST', `/api/v1/stores/${storeId}/invoices`, { amount: '1.00' })
    const marked = await api('POST', `/api/v1/stores/${storeId}/invoices/${created.body.id}/status`, {
      status: 'Invalid',
    })
    expect(marked.body.status).toBe('Invalid')
    await worker.drain()
    const log = async () =>
      (await api('GET', `/api/v1/stores/${storeId}/webhooks/${webhookId}/deliveries`)).body as {
        id: string
        status: string
        httpCode: number | null
      }[]
    expect((await log()).slice(0, 2).map((d) => [d.status, d.httpCode])).toEqual([
      ['HttpError', 503],
      ['HttpError', 503],
    ])
    answer = 200
    await waitFor('the retries delivered', async () => {
      await worker.drain()
      return (await log()).slice(0, 2).every((d) => d.status === 'HttpSuccess')
    })
    const types = receiver.received.slice(before).map((r) => JSON.parse(r.body).type)
    expect(types.filter((t) => t === 'InvoiceInvalid').length).toBeGreaterThanOrEqual(2)
    const invalid = receiver.received.slice(before).find((r) => JSON.parse(r.body).type === 'InvoiceInvalid')
    expect(JSON.parse(invalid?.body as string).manuallyMarked).toBe(true)

    const [latest] = await log()
    const count = receiver.received.length
    const again = await api(
      'POST',
      `/api/v1/stores/${storeId}/webhooks/${webhookId}/deliveries/${latest?.id}/redeliver`,
    )
    expect(again.status).toBe(200)
    expect(again.body).toBe(latest?.id)
    await worker.drain()
    expect(receiver.received.length).toBe(count + 1)

    const missing = await api(
      'POST',
      `/api/v1/stores/${storeId}/webhooks/${webhookId}/deliveries/nope/redeliver`,
    )
    expect(missing.status).toBe(404)
    expect(problemDetailsSchema.parse(missing.body).code).toBe('webhook-not-found')
  })

  it('webhooks: only chosen events, bad input named, changed and deleted', async () => {
    const bad = await api('POST', `/api/v1/stores/${storeId}/webhooks`, {
      url: 'ftp://x',
      authorizedEvents: { everything: false, specificEvents: ['InvoicePaid'] },
    })
    expect(bad.status).toBe(400)
    expect((bad.body as { path: string }[]).map((i) => i.path)).toEqual(
      expect.arrayContaining(['url', 'authorizedEvents.specificEvents.0']),
    )
    const made = await api('POST', `/api/v1/stores/${storeId}/webhooks`, {
      url: `${receiver.url}/settled-only`,
      authorizedEvents: { everything: false, specificEvents: ['InvoiceSettled'] },
    })
    expect(made.body.authorizedEvents).toEqual({ everything: false, specificEvents: ['InvoiceSettled'] })
    const changed = await api('PUT', `/api/v1/stores/${storeId}/webhooks/${made.body.id}`, {
      url: `${receiver.url}/settled-only`,
      enabled: false,
      authorizedEvents: { everything: false, specificEvents: ['InvoiceSettled'] },
    })
    expect(changed.body.enabled).toBe(false)
    expect((await api('DELETE', `/api/v1/stores/${storeId}/webhooks/${made.body.id}`)).status).toBe(200)
    expect((await api('GET', `/api/v1/stores/${storeId}/webhooks/${made.body.id}`)).status).toBe(404)
    // The admin's Webhooks tab lists the shop's own endpoints only.
    const admin = await adminSession(f.t)
    const listed = await rpc(f.t.app, 'secure_fetch_webhooks', {}, admin)
    expect((listed.body.endpoints as { url: string }[]).map((e) => e.url)).toEqual([`${receiver.url}/shop`])
  })

  it('an invoice of catalogue products: priced from the catalogue, its keys delivered and named in InvoiceSettled', async () => {
    const product = f.products[0] as { id: number; price: number }
    const price = product.price.toFixed(2)
    const before = Number((await f.rows(sql`select count(*)::int as n from invoices`))[0]?.n)
    // Refused, nothing made: an unknown product, an amount that is not the catalogue's total.
    const unknown = await api('POST', `/api/v1/stores/${storeId}/invoices`, {
      amount: price,
      products: [{ id: 999_999 }],
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body[0]).toMatchObject({ path: 'products' })
    const wrong = await api('POST', `/api/v1/stores/${storeId}/invoices`, {
      amount: (product.price + 1).toFixed(2),
      products: [{ id: product.id }],
    })
    expect(wrong.status).toBe(400)
    expect(wrong.body[0]).toMatchObject({ path: 'amount', message: `must be the products' total, ${price}` })
    expect(Number((await f.rows(sql`select count(*)::int as n from invoices`))[0]?.n)).toBe(before)

    const created = await api('POST', `/api/v1/stores/${storeId}/invoices`, {
      amount: price,
      products: [{ id: product.id, quantity: 1 }],
      metadata: { orderId: 'woo-keys', buyerEmail: 'buyer@example.com' },
    })
    expect(created.status).toBe(200)
    const id = created.body.id as string
    const [order] = (await f.rows(
      sql`select o.id, o.wallet_address, o.items from orders o join invoices i on i.order_id = o.id where i.id = ${id}`,
    )) as { id: string; wallet_address: string; items: { product: { id: number } }[] }[]
    if (!order) throw new Error('the invoice has no order')
    expect(order.items.map((i) => i.product.id)).toEqual([product.id])
    const count = receiver.received.length
    await f.pay({ to: order.wallet_address, amount: price })
    expect((await invoice(id)).status).toBe('Settled')
    const keys = await f.rows(
      sql`select product_id, key from license_keys where order_id = ${order.id} order by id`,
    )
    expect(keys).toHaveLength(1)

    await worker.drain()
    const settled = receiver.received
      .slice(count)
      .filter((r) => r.url === '/btcpay')
      .map((r) => JSON.parse(r.body))
      .filter((b) => b.type === 'InvoiceSettled' && b.invoiceId === id)
    expect(settled).toHaveLength(1)
    expect(settled[0].keys).toEqual(
      keys.map((k) => ({ productId: product.id, productName: expect.any(String), key: k.key })),
    )
  })
})
