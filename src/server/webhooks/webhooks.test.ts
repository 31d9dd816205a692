import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startReceiver } from '../../../tests/support/http-receiver'
import { testAddresses } from '../../../tests/support/test-addresses'
import { adminSession, createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { waitFor } from '../../../tests/support/wait'
import { ensureFirstAdmin } from '../admin/admin-auth'
import { openPostgres } from '../db/client'
import { webhookDeliveries } from '../db/schema'
import { seedOnce } from '../db/seed'
import { addKeyStock } from '../keys/key-stock'
import { addWalletAddresses } from '../wallets/wallets.repo'
import { createWebhookWorker, postSigned } from './delivery-worker'
import { recordEvent } from './events'
import { checkTargetUrl, guardedLookup, isPrivateAddress } from './safe-target'
import { signBody, verifySignature } from './signature'

const PASSWORD = 'webhook-admin-password'

describe('signatures and targets', () => {
  it('signs t.body with HMAC-SHA256 and the receiver check accepts it, and nothing altered', () => {
    const body = '{"id":"e1","type":"order.paid"}'
    const t = 1_800_000_000
    const header = signBody('whsec_test', body, t)
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/)
    expect(verifySignature('whsec_test', body, header, { now: t * 1000 })).toBe(true)
    expect(verifySignature('whsec_test', `${body} `, header, { now: t * 1000 })).toBe(false)
    expect(verifySignature('other', body, header, { now: t * 1000 })).toBe(false)
    // Too old: a replayed capture.
    expect(verifySignature('whsec_test', body, header, { now: (t + 3600) * 1000 })).toBe(false)
  })

  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['fd00::1', true],
    ['fe80::1', true],
    ['::ffff:127.0.0.1', true],
    ['8.8.8.8', false],
    ['2606:4700:4700::1111', false],
  ])('%s private: %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected)
  })

  it('refuses non-http(s), loopback names and literal private addresses unless allowed', () => {
    expect(() => checkTargetUrl('ftp://example.com/x', false)).toThrow(/only http and https/)
    expect(() => checkTargetUrl('file:///etc/passwd', true)).toThrow(/only http and https/)
    expect(() => checkTargetUrl('http://localhost:8080/', false)).toThrow(/loopback/)
    expect(() => checkTargetUrl('http://[::1]/', false)).toThrow(/private or loopback/)
    expect(() => checkTargetUrl('http://10.0.0.5/', false)).toThrow(/private or loopback/)
    expect(checkTargetUrl('https://example.com/hook', false).hostname).toBe('example.com')
    expect(checkTargetUrl('http://127.0.0.1:9/', true).port).toBe('9')
  })

  it('the connection lookup refuses a name that resolves to a private address', async () => {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup(false)('localhost', {}, (err) => resolve(err)),
    )
    expect(error?.code).toBe('EPRIVATE')
  })

  it('by default a delivery to 127.0.0.1 is refused and never reaches the receiver', async () => {
    const receiver = await startReceiver()
    try {
      const result = await postSigned(`${receiver.url}/hook`, '{}', 's', {
        allowPrivate: false,
        timeoutMs: 2000,
        maxResponseBytes: 1024,
        eventId: 'e',
      })
      expect(result.status).toBeNull()
      expect(result.response).toMatch(/refused: 127\.0\.0\.1 is a private or loopback address/)
      expect(receiver.received).toHaveLength(0)
    } finally {
      await receiver.close()
    }
  })

  it('an endless answer is cut at the size cap; a silent receiver times out', async () => {
    const big = await startReceiver((_r, res) => {
      res.writeHead(200)
      const chunk = Buffer.alloc(64 * 1024, 'a')
      const write = () => {
        while (res.write(chunk)) {}
        res.once('drain', write)
      }
      write()
    })
    const silent = await startReceiver(() => {})
    try {
      const capped = await postSigned(big.url, '{}', 's', {
        allowPrivate: true,
        timeoutMs: 5000,
        maxResponseBytes: 8 * 1024,
        eventId: 'e',
      })
      expect(capped.status).toBe(200)
      expect(capped.response.length).toBeLessThanOrEqual(1000)
      const started = Date.now()
      const timedOut = await postSigned(silent.url, '{}', 's', {
        allowPrivate: true,
        timeoutMs: 300,
        maxResponseBytes: 1024,
        eventId: 'e',
      })
      expect(timedOut.status).toBeNull()
      expect(timedOut.response).toMatch(/no answer within 300 ms/)
      expect(Date.now() - started).toBeLessThan(3000)
    } finally {
      await big.close()
      await silent.close()
    }
  })
})

describe.each(engines)('webhooks on %s', (engine) => {
  let t: TestApp
  let cookie: string
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let answer: (index: number) => number = () => 200
  const pool = testAddresses(10, 'webhooks')

  beforeAll(async () => {
    t = await createTestApp(engine, { ADMIN_PASSWORD: PASSWORD, WEBHOOK_ALLOW_PRIVATE: 'true' })
    await seedOnce(t.database.db)
    await ensureFirstAdmin(t.database.db, t.env)
    await t.database.db.execute(sql`delete from wallet_addresses`)
    await addWalletAddresses(t.database.db, pool)
    cookie = (await adminSession(t)).cookie as string
    receiver = await startReceiver((_r, res, i) => {
      res.statusCode = answer(i)
      res.end(res.statusCode < 300 ? 'thanks' : 'try later')
    })
  })
  afterAll(async () => {
    await receiver.close()
    await t.close()
  })
  beforeEach(async () => {
    receiver.received.length = 0
    answer = () => 200
    await t.database.db.execute(sql`delete from webhook_deliveries`)
    await t.database.db.execute(sql`delete from webhook_endpoints`)
    await t.database.db.execute(
      sql`update wallet_addresses set leased_order_id = null, cooldown_until = null`,
    )
  })

  const admin = (name: string, payload: Record<string, unknown> = {}) => rpc(t.app, name, payload, { cookie })
  const addEndpoint = async (events: string[], includeKeys = false, path = '/hook') => {
    const res = await admin('secure_save_webhook', {
      p_url: `${receiver.url}${path}`,
      p_events: events,
      p_include_keys: includeKeys,
      p_enabled: true,
    })
    expect(res.body).toMatchObject({ success: true, secret: expect.stringMatching(/^whsec_/) })
    return { id: res.body.id as number, secret: res.body.secret as string }
  }
  const placeOrder = async () => {
    const res = await rpc(t.app, 'secure_create_order', {
      p_email: 'buyer@example.com',
      p_items: [{ product: { id: 1 }, quantity: 1 }],
      p_total: 49.99,
    })
    expect(res.body).toMatchObject({ success: true })
    secrets.set(res.body.order_id as string, res.body.order_secret as string)
    return res.body.order_id as string
  }
  const secrets = new Map<string, string>()

  it('an order.created event is posted after commit, signed, and the signature verifies', async () => {
    const { id, secret } = await addEndpoint(['order.created'])
    const orderId = await placeOrder()
    const worker = createWebhookWorker({ db: t.database.db, allowPrivate: true })
    expect(await worker.drain()).toBe(1)
    expect(receiver.received).toHaveLength(1)
    const [hit] = receiver.received
    const header = hit!.headers['stablecart-signature'] as string
    expect(verifySignature(secret, hit!.body, header)).toBe(true)
    const body = JSON.parse(hit!.body)
    expect(body).toMatchObject({ type: 'order.created', data: { order_id: orderId, total_usd: '49.99' } })
    expect(hit!.headers['stablecart-event-id']).toBe(body.id)
    // The secret is never answered again.
    const list = await admin('secure_fetch_webhooks')
    expect(JSON.stringify(list.body)).not.toContain(secret)
    const log = await admin('secure_fetch_webhook_deliveries', { p_id: id })
    expect(log.body.deliveries).toMatchObject([{ status: 'delivered', attempts: 1, last_status_code: 200 }])
  })

  it('a receiver failing three times then succeeding gets one accepted delivery with one event id', async () => {
    answer = (i) => (i < 3 ? 503 : 200)
    const { id } = await addEndpoint(['order.created'])
    await placeOrder()
    const worker = createWebhookWorker({
      db: t.database.db,
      allowPrivate: true,
      pollMs: 20,
      backoffBaseMs: 30,
    })
    worker.start()
    try {
      await waitFor('the delivery to succeed', async () => {
        const [row] = await t.database.db.select().from(webhookDeliveries)
        return row?.status === 'delivered' ? row : null
      })
    } finally {
      await worker.stop()
    }
    expect(receiver.received).toHaveLength(4)
    expect(new Set(receiver.received.map((r) => JSON.parse(r.body).id)).size).toBe(1)
    const log = await admin('secure_fetch_webhook_deliveries', { p_id: id })
    expect(log.body.deliveries).toMatchObject([
      { status: 'delivered', attempts: 4, last_status_code: 200, last_response: 'thanks' },
    ])
  })

  it('two processes deliver each event once', async () => {
    await addEndpoint(['stock.low'])
    await t.database.db.transaction(async (tx) => {
      for (let i = 0; i < 30; i++) await recordEvent(tx, 'stock.low', { product_id: i })
    })
    const second = t.database.url
      ? await openPostgres(t.database.url, { migrate: false, max: 4 })
      : t.database
    const a = createWebhookWorker({ db: t.database.db, allowPrivate: true, pollMs: 10 })
    const b = createWebhookWorker({ db: second.db, allowPrivate: true, pollMs: 10 })
    a.start()
    b.start()
    try {
      await waitFor('all thirty delivered', async () => {
        const rows = await t.database.db.select().from(webhookDeliveries)
        return rows.every((r) => r.status === 'delivered')
      })
    } finally {
      await a.stop()
      await b.stop()
      if (second !== t.database) await second.close()
    }
    const ids = receiver.received.map((r) => JSON.parse(r.body).id)
    expect(ids).toHaveLength(30)
    expect(new Set(ids).size).toBe(30)
  })

  it('order.paid carries items, amounts and transactions; keys only to endpoints that opted in', async () => {
    const withKeys = await addEndpoint(['order.paid', 'stock.low'], true, '/with-keys')
    await addEndpoint(['order.paid'], false, '/without-keys')
    await addKeyStock(t.database.db, 1, ['STOCK-KEY-ONE'])
    // Its keys are generated once the stock is gone: only a threshold of its own makes it low.
    expect(
      (
        await admin('secure_update_stock_settings', {
          p_product_id: 1,
          p_delivery_mode: 'stock_then_generated',
          p_low_stock_threshold: 1,
        })
      ).body,
    ).toEqual({ success: true })
    const orderId = await placeOrder()
    expect(
      (await admin('secure_update_order_status', { p_order_id: orderId, p_status: 'paid' })).body,
    ).toEqual({
      success: true,
    })
    await createWebhookWorker({ db: t.database.db, allowPrivate: true }).drain()
    const byPath = (path: string, type: string) =>
      receiver.received
        .filter((r) => r.url === path)
        .map((r) => JSON.parse(r.body))
        .find((b) => b.type === type)
    const keyed = byPath('/with-keys', 'order.paid')
    const plain = byPath('/without-keys', 'order.paid')
    expect(keyed.id).toBe(plain.id)
    expect(keyed.data).toMatchObject({
      order_id: orderId,
      status: 'paid',
      total_usd: '49.99',
      items: [{ product_id: 1, quantity: 1 }],
      payments: [],
      keys: [{ product_id: 1, key: 'STOCK-KEY-ONE' }],
    })
    expect(plain.data.keys).toBeUndefined()
    // The last stocked key went: stock.low for that product.
    expect(byPath('/with-keys', 'stock.low').data).toMatchObject({ product_id: 1, keys_left: 0 })
    expect(withKeys.secret).toBeTruthy()
  })

  it('order.cancelled from the buyer and from the admin; a disabled endpoint hears nothing', async () => {
    const { id } = await addEndpoint(['order.cancelled'])
    const first = await placeOrder()
    const second = await placeOrder()
    expect(
      (await rpc(t.app, 'secure_cancel_order', { p_order_id: first, p_order_secret: secrets.get(first) }))
        .body,
    ).toMatchObject({
      success: true,
    })
    await admin('secure_update_order_status', { p_order_id: second, p_status: 'cancelled' })
    await admin('secure_save_webhook', {
      p_id: id,
      p_url: `${receiver.url}/hook`,
      p_events: ['order.cancelled'],
      p_include_keys: false,
      p_enabled: false,
    })
    await admin('secure_update_order_status', {
      p_order_id: (await placeOrder()) as string,
      p_status: 'cancelled',
    })
    await createWebhookWorker({ db: t.database.db, allowPrivate: true }).drain()
    expect(receiver.received.map((r) => JSON.parse(r.body).data.order_id).sort()).toEqual(
      [first, second].sort(),
    )
  })

  it('resend posts the same event again; bad input is a 400; a private URL is refused on an app without the flag', async () => {
    const { id } = await addEndpoint(['order.created'])
    await placeOrder()
    const worker = createWebhookWorker({ db: t.database.db, allowPrivate: true })
    await worker.drain()
    const log = await admin('secure_fetch_webhook_deliveries', { p_id: id })
    const deliveryId = (log.body.deliveries as { id: number }[])[0]!.id
    expect((await admin('secure_resend_webhook', { p_delivery_id: deliveryId })).body).toEqual({
      success: true,
    })
    await worker.drain()
    expect(receiver.received).toHaveLength(2)
    expect(JSON.parse(receiver.received[0]!.body).id).toBe(JSON.parse(receiver.received[1]!.body).id)

    const bad = await admin('secure_save_webhook', {
      p_url: 'gopher://x',
      p_events: [],
      p_include_keys: false,
      p_enabled: true,
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatch(/p_url/)

    const strict = await createTestApp(engine, { ADMIN_PASSWORD: PASSWORD }, { database: t.database })
    const refused = await rpc(
      strict.app,
      'secure_save_webhook',
      {
        p_url: 'http://127.0.0.1:8080/hook',
        p_events: ['order.paid'],
        p_include_keys: false,
        p_enabled: true,
      },
      { cookie },
    )
    expect(refused.body).toEqual({
      success: false,
      error: 'URL refused: 127.0.0.1 is a private or loopback address',
    })
    await strict.app.close()
  })
})
