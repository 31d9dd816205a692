import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startReceiver } from '../../../tests/support/http-receiver'
import { createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { createTestDatabase, engines } from '../../../tests/support/test-db'
import { tronPoolOf } from '../chains/tron/tron-chain'
import { mailOutbox } from '../db/schema'
import { seedOnce } from '../db/seed'

const TOKEN = 'metrics-token-0123456789'

/** One sample's value from Prometheus text, or undefined when the line is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('GET /metrics without METRICS_TOKEN', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp('pglite')
  })
  afterAll(() => t.close())

  it('is off: 404, even with a bearer token', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers })
      expect(res.statusCode).toBe(404)
      expect(res.json().error).toMatch(/METRICS_TOKEN/)
    }
  })
})

describe.each(engines)('GET /metrics on %s', (engine) => {
  let t: TestApp
  let explorer: Awaited<ReturnType<typeof startReceiver>>
  beforeAll(async () => {
    // A chain explorer that is down: every request answers 503.
    explorer = await startReceiver((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"Error":"down"}')
    })
    const database = await createTestDatabase(engine)
    await seedOnce(database.db)
    t = await createTestApp(
      engine,
      { METRICS_TOKEN: TOKEN, TRON_API_URL: explorer.url, EXPLORER_MAX_RPS: '50' },
      { database },
    )
  })
  afterAll(async () => {
    await t.close()
    await explorer.close()
  })

  const scrape = async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    return res.body
  }

  it('needs the bearer token', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      })
      expect(res.statusCode, authorization).toBe(401)
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/)
    }
  })

  it('counts requests by route and status, naming RPC calls but not unknown ones', async () => {
    await rpc(t.app, 'fetch_products')
    await rpc(t.app, 'fetch_products')
    await rpc(t.app, 'fetch_products', '{bad' as unknown as object)
    await rpc(t.app, 'no_such_call_123')
    await t.app.inject({ method: 'GET', url: '/api/health' })
    const text = await scrape()
    expect(
      sample(text, 'stablecart_http_requests_total{method="POST",route="/rpc/fetch_products",status="200"}'),
    ).toBe(2)
    expect(
      sample(text, 'stablecart_http_requests_total{method="POST",route="/rpc/unknown",status="404"}'),
    ).toBe(1)
    expect(
      sample(text, 'stablecart_http_requests_total{method="GET",route="/api/health",status="200"}'),
    ).toBe(1)
    expect(text).not.toContain('no_such_call_123')
    expect(text).toContain(
      'stablecart_http_request_duration_seconds_bucket{le="0.005",route="/rpc/fetch_products"}',
    )
    expect(text).toContain('stablecart_process_cpu_seconds_total')
  })

  it('reports pending orders, free addresses, the mail backlog and unmatched transfers from the database', async () => {
    const before = await scrape()
    const free = sample(before, 'stablecart_wallet_addresses_free') ?? Number.NaN
    expect(free).toBeGreaterThan(0)
    expect(sample(before, 'stablecart_orders_pending')).toBe(0)

    const products = (await rpc(t.app, 'fetch_products')).body.products as { id: number; price: number }[]
    const product = products.find((p) => p.price > 0) as { id: number; price: number }
    const placed = await rpc(t.app, 'secure_create_order', {
      p_email: 'buyer@example.com',
      p_items: [{ product: { id: product.id }, quantity: 1 }],
      p_total: product.price,
    })
    expect(placed.body.success).toBe(true)
    const mail = { kind: 'test', toEmail: 'a@example.com', subject: 's', html: 'h', textBody: 't' }
    await t.database.db.insert(mailOutbox).values([
      { ...mail, orderId: null },
      { ...mail, kind: 'test2', status: 'failed' },
    ])
    await t.database.db.execute(
      sql`insert into payments (order_id, tx_id, token, amount_units, from_address, to_address, block_timestamp)
          values (null, ${'ab'.repeat(32)}, 'USDT', 5000000, 'Tfrom', 'Tto', 0)`,
    )

    const after = await scrape()
    expect(sample(after, 'stablecart_orders_pending')).toBe(1)
    expect(sample(after, 'stablecart_wallet_addresses_free')).toBe(free - 1)
    expect(sample(after, 'stablecart_mail_outbox_pending')).toBe(1)
    expect(sample(after, 'stablecart_mail_outbox_failed')).toBe(1)
    expect(sample(after, 'stablecart_transfers_unmatched')).toBe(1)
    expect(sample(after, 'stablecart_wallet_addresses_leased')).toBe(1)
    expect(sample(after, 'stablecart_webhook_deliveries_pending')).toBe(0)
    expect(sample(after, 'stablecart_webhook_deliveries_failed')).toBe(0)
  })

  it("reports the chain follower's lag in blocks, unknown before it has a checkpoint", async () => {
    await t.database.db.execute(sql`delete from follower_state`)
    expect(sample(await scrape(), 'stablecart_scanner_lag_blocks')).toBeNaN()
    await t.database.db.execute(
      sql`insert into follower_state (id, checkpoint_block, checkpoint_time, solid_head)
          values (1, 100, ${Date.now() - 60_000}, 112)`,
    )
    const text = await scrape()
    expect(sample(text, 'stablecart_scanner_lag_blocks')).toBe(12)
    expect(sample(text, 'stablecart_scanner_checkpoint_age_seconds')).toBeGreaterThanOrEqual(60)
  })

  it('counts explorer requests and their errors', async () => {
    const result = await tronPoolOf(t.app.services.chains.require('tron')).getSolidHead()
    expect(result.status).not.toBe('success')
    const text = await scrape()
    expect(sample(text, 'stablecart_explorer_requests_total{status="503"}')).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'stablecart_explorer_errors_total{reason="http"}')).toBeGreaterThanOrEqual(1)
    // The same per provider (one here, named after its host).
    const provider = `provider="127.0.0.1:${new URL(t.env.TRON_API_URL).port}"`
    expect(sample(text, `stablecart_provider_requests_today{${provider}}`)).toBeGreaterThanOrEqual(1)
    expect(sample(text, `stablecart_provider_success_ratio{${provider}}`)).toBe(0)
    expect(sample(text, `stablecart_provider_healthy{${provider}}`)).toBe(0)
  })

  it('a gauge registered by another module is read at scrape time; one that throws reads NaN', async () => {
    let lag = 3
    t.app.services.metrics.gauge('stablecart_test_lag_blocks', 'test gauge', () => lag)
    t.app.services.metrics.gauge('stablecart_test_broken', 'test gauge', async () => {
      throw new Error('database gone')
    })
    expect(sample(await scrape(), 'stablecart_test_lag_blocks')).toBe(3)
    lag = 7
    const text = await scrape()
    expect(sample(text, 'stablecart_test_lag_blocks')).toBe(7)
    expect(sample(text, 'stablecart_test_broken')).toBeNaN()
  })
})
