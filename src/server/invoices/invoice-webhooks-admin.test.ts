import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startReceiver } from '../../../tests/support/http-receiver'
import { testAddresses } from '../../../tests/support/test-addresses'
import { adminSession, createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { seedOnce } from '../db/seed'
import { addWalletAddresses } from '../wallets/wallets.repo'
import { createWebhookWorker } from '../webhooks/delivery-worker'
import { recordEpusdtCallback } from '../webhooks/events'

// The invoice API's webhooks in the admin, through real HTTP: a Greenfield endpoint registered by
// the operator, an invoice's InvoiceCreated delivered to a local receiver, shown in the log with its
// invoice id and sent again on "Redeliver"; an epusdt notify_url listed with its callback.

const PASSWORD = 'invoice-webhooks-admin-password'
const EPUSDT_TOKEN = 'epusdt-test-token'

describe.each(engines)('invoice webhooks in the admin on %s', (engine) => {
  let t: TestApp
  let admin: Record<string, string>
  let key: string
  let storeId: string
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  const call = (name: string, payload: Record<string, unknown> = {}) => rpc(t.app, name, payload, admin)
  const drain = () =>
    createWebhookWorker({ db: t.database.db, allowPrivate: true, epusdtToken: EPUSDT_TOKEN }).drain()

  beforeAll(async () => {
    receiver = await startReceiver((_r, res) => res.end('ok'))
    t = await createTestApp(engine, { ADMIN_PASSWORD: PASSWORD, WEBHOOK_ALLOW_PRIVATE: 'true' })
    await seedOnce(t.database.db)
    await t.database.db.execute(sql`delete from wallet_addresses`)
    await addWalletAddresses(t.database.db, testAddresses(5, 'invoice-webhooks-admin'))
    admin = await adminSession(t)
    const made = await call('secure_create_api_key', {
      p_current_password: PASSWORD,
      p_label: 'Cart',
      p_scopes: ['btcpay.store.cancreateinvoice'],
    })
    key = made.body.key as string
    storeId = (await call('secure_fetch_api_keys')).body.store_id as string
  })
  afterAll(async () => {
    await receiver?.close()
    await t?.close()
  })
  beforeEach(async () => {
    receiver.received.length = 0
    await t.database.db.execute(sql`delete from webhook_deliveries`)
    await t.database.db.execute(sql`delete from webhook_endpoints`)
  })

  it('refuses every call without a session (401) and bad ids or fields (400), changing nothing', async () => {
    for (const [name, payload] of [
      ['secure_fetch_invoice_webhooks', {}],
      ['secure_add_greenfield_webhook', { p_url: `${receiver.url}/gf`, p_events: ['InvoiceSettled'] }],
    ] as const) {
      const res = await rpc(t.app, name, payload)
      expect(res.status).toBe(401)
    }
    for (const [name, payload] of [
      ['secure_fetch_webhook_deliveries', { p_id: 'x' }],
      ['secure_fetch_webhook_deliveries', { p_id: -1 }],
      ['secure_resend_webhook', { p_delivery_id: 2 ** 40 }],
      ['secure_delete_webhook', { p_id: '1; drop table orders' }],
      ['secure_add_greenfield_webhook', { p_url: 'ftp://example.com/x', p_events: ['InvoiceSettled'] }],
      ['secure_add_greenfield_webhook', { p_url: `${receiver.url}/gf`, p_events: ['order.paid'] }],
      ['secure_add_greenfield_webhook', { p_url: `${receiver.url}/gf`, p_events: [] }],
    ] as const) {
      const res = await call(name, payload)
      expect(res.status, `${name} ${JSON.stringify(payload)}`).toBe(400)
      expect(JSON.stringify(res.body)).toMatch(/p_id|p_delivery_id|p_url|p_events/)
    }
    const listed = await call('secure_fetch_invoice_webhooks')
    expect(listed.body).toEqual({ success: true, greenfield: [], epusdt: [] })
  })

  it('registers a Greenfield webhook from the admin, logs a delivery with its invoice and redelivers it', async () => {
    const added = await call('secure_add_greenfield_webhook', {
      p_url: `${receiver.url}/gf`,
      p_events: ['InvoiceCreated', 'InvoiceSettled'],
    })
    expect(added.body).toMatchObject({ success: true, secret: expect.stringMatching(/^whsec_/) })
    const id = added.body.id as number
    // The API sees the same endpoint: one store of webhooks, whichever side made it.
    const invoice = await t.app.inject({
      method: 'POST',
      url: `/api/v1/stores/${storeId}/invoices`,
      headers: { authorization: `token ${key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ amount: '12.50', currency: 'USD' }),
    })
    expect(invoice.statusCode).toBe(200)
    const invoiceId = invoice.json().id as string
    expect(await drain()).toBe(1)
    expect(receiver.received).toHaveLength(1)
    const first = receiver.received[0]!
    expect(JSON.parse(first.body)).toMatchObject({ type: 'InvoiceCreated', invoiceId })

    const listed = await call('secure_fetch_invoice_webhooks')
    expect(listed.body.greenfield).toMatchObject([
      {
        id,
        url: `${receiver.url}/gf`,
        events: ['InvoiceCreated', 'InvoiceSettled'],
        enabled: true,
        last_status: 'delivered',
        last_status_code: 200,
      },
    ])
    expect(JSON.stringify(listed.body)).not.toContain(added.body.secret as string)
    // The shop's own save call leaves it alone: it keeps its invoice events.
    const changed = await call('secure_save_webhook', {
      p_id: id,
      p_url: `${receiver.url}/gf`,
      p_events: ['order.paid'],
      p_include_keys: false,
      p_enabled: true,
    })
    expect(changed.body).toEqual({ success: false, error: 'Webhook not found' })
    expect((await call('secure_fetch_invoice_webhooks')).body.greenfield).toMatchObject([
      { id, events: ['InvoiceCreated', 'InvoiceSettled'] },
    ])
    // The shop's own list stays its own.
    expect((await call('secure_fetch_webhooks')).body.endpoints).toEqual([])

    const log = await call('secure_fetch_webhook_deliveries', { p_id: id })
    const deliveries = log.body.deliveries as { id: number; event_type: string; invoice_id: string }[]
    expect(deliveries).toMatchObject([
      { event_type: 'InvoiceCreated', invoice_id: invoiceId, status: 'delivered', last_status_code: 200 },
    ])
    const resent = await call('secure_resend_webhook', { p_delivery_id: deliveries[0]!.id })
    expect(resent.body).toEqual({ success: true })
    expect(await drain()).toBe(1)
    expect(receiver.received).toHaveLength(2)
    // The same delivery again: same body, same signature scheme, so the seller can drop a repeat.
    expect(receiver.received[1]!.body).toBe(first.body)
    expect(receiver.received[1]!.headers['btcpay-sig']).toBe(first.headers['btcpay-sig'])

    const removed = await call('secure_delete_webhook', { p_id: id })
    expect(removed.body).toEqual({ success: true })
    expect((await call('secure_fetch_invoice_webhooks')).body.greenfield).toEqual([])
  })

  it('refuses a private target unless allowed, in words, registering nothing', async () => {
    const strict = await createTestApp(engine, { ADMIN_PASSWORD: PASSWORD }, { database: t.database })
    try {
      const res = await rpc(
        strict.app,
        'secure_add_greenfield_webhook',
        { p_url: 'http://10.0.0.5/hook', p_events: ['InvoiceSettled'] },
        await adminSession(strict),
      )
      expect(res.body).toEqual({ success: false, error: expect.stringMatching(/^URL refused: .*private/) })
      expect((await call('secure_fetch_invoice_webhooks')).body.greenfield).toEqual([])
    } finally {
      await strict.app.close()
    }
  })

  it("lists an epusdt seller's notify_url with its callback, and redelivers it signed", async () => {
    const notifyUrl = `${receiver.url}/epusdt`
    await t.database.db.transaction((tx) =>
      recordEpusdtCallback(tx, notifyUrl, {
        trade_id: '11111111-2222-4333-8444-555555555555',
        order_id: 'cart-7',
        amount: 70,
        actual_amount: 10,
        token: 'TXYZ',
        block_transaction_id: 'ab'.repeat(32),
        status: 2,
      }),
    )
    expect(await drain()).toBe(1)
    const listed = await call('secure_fetch_invoice_webhooks')
    expect(listed.body.greenfield).toEqual([])
    const [endpoint] = listed.body.epusdt as { id: number; url: string; last_status: string }[]
    expect(endpoint).toMatchObject({ url: notifyUrl, last_status: 'delivered' })
    const log = await call('secure_fetch_webhook_deliveries', { p_id: endpoint!.id })
    const [delivery] = log.body.deliveries as { id: number; event_type: string; invoice_id: string }[]
    expect(delivery).toMatchObject({
      event_type: 'epusdt.paid',
      invoice_id: '11111111-2222-4333-8444-555555555555',
    })
    expect((await call('secure_resend_webhook', { p_delivery_id: delivery!.id })).body).toEqual({
      success: true,
    })
    expect(await drain()).toBe(1)
    expect(receiver.received).toHaveLength(2)
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body)
    expect(JSON.parse(receiver.received[1]!.body)).toMatchObject({
      order_id: 'cart-7',
      signature: expect.any(String),
    })
  })
})
