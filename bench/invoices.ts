// The invoice API under load: 50 clients (a seller's cart servers) each creating invoices through
// POST /api/v1/stores/{storeId}/invoices over real HTTP, against the shop on the embedded PGlite
// and (with DATABASE_URL) on PostgreSQL. Every invoice is an order that leases its own address from
// the pool, in one transaction with its invoice row. Prints invoices per second (wall clock),
// p50/p99 of one creation, and the delay of a Greenfield webhook after an invoice is settled
// (the operator's mark through the API, the worker woken as the server wakes it). Then the same
// clients through the epusdt route (POST /api/v1/order/create-transaction, signed with MD5).
// The clients run in this process (fetch over loopback): the figures include their cost.
//   npm run bench:invoices                      (PGlite only)
//   DATABASE_URL=postgres://... npm run bench:invoices
//   BENCH_ENGINES=postgres, BENCH_INVOICES (default 2000), BENCH_CLIENTS (default 50)

import { createHash } from 'node:crypto'
import { createServer } from 'node:http'
import { ensureFirstAdmin } from '../src/server/admin/admin-auth'
import { buildApp } from '../src/server/app'
import { createApiKey, storeIdOf } from '../src/server/invoices/api-keys.repo'
import { addWalletAddresses } from '../src/server/wallets/wallets.repo'
import { createWebhookWorker } from '../src/server/webhooks/delivery-worker'
import { testAddresses } from '../tests/support/test-addresses'
import { onEngines, openBenchShop } from './support/bench-db'
import { quantile } from './support/run-load'

const INVOICES = Number(process.env.BENCH_INVOICES ?? 2000)
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50)
const WEBHOOK_SAMPLES = 20
const EPUSDT_TOKEN = 'bench-epusdt-token-0123456789'

/** An epusdt cart's signature: non-empty values sorted by name, name=value&…, the token, MD5. */
function epusdtSigned(params: Record<string, string | number>): Record<string, string | number> {
  const text = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&')
  return {
    ...params,
    signature: createHash('md5')
      .update(text + EPUSDT_TOKEN)
      .digest('hex'),
  }
}

/** `count` requests from CLIENTS clients at once: requests per second, p50 and p99 of one. */
async function load(count: number, one: (n: number) => Promise<void>) {
  const latencies: number[] = []
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < count) {
        const n = next++
        const t0 = performance.now()
        await one(n)
        latencies.push(performance.now() - t0)
      }
    }),
  )
  const elapsed = (performance.now() - started) / 1000
  const sorted = latencies.sort((a, b) => a - b)
  return {
    perSecond: (count / elapsed).toFixed(0),
    p50: quantile(sorted, 0.5).toFixed(1),
    p99: quantile(sorted, 0.99).toFixed(1),
  }
}

async function run(kind: 'pglite' | 'postgres'): Promise<void> {
  const shop = await openBenchShop(kind, {
    API_RATE_PER_CLIENT: '10000000',
    API_RATE_PER_KEY: '10000000',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    ADMIN_PASSWORD: 'bench-password',
    EPUSDT_TOKEN: EPUSDT_TOKEN,
    EPUSDT_RATE: 'fixed:7.2',
  })
  const { db } = shop.database
  await ensureFirstAdmin(db, shop.env)
  await addWalletAddresses(db, testAddresses(2 * INVOICES + WEBHOOK_SAMPLES + 100, `bench-${Date.now()}`))
  const app = await buildApp({ env: shop.env, database: shop.database })
  // The webhook worker as server.ts runs it: a 2 s poll, woken when an order is paid.
  const worker = createWebhookWorker({ db, allowPrivate: true, pollMs: 2000 })
  app.services.orderPaid.on(() => worker.wake())
  const arrived = new Map<string, number>()
  const receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => {
      body += c
    })
    req.on('end', () => {
      const event = JSON.parse(body) as { type: string; invoiceId: string }
      if (event.type === 'InvoiceSettled') arrived.set(event.invoiceId, performance.now())
      res.end('ok')
    })
  })
  try {
    await app.listen({ port: 0, host: '127.0.0.1' })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    const port = (server: { address(): unknown }) => (server.address() as { port: number }).port
    const base = `http://127.0.0.1:${port(app.server)}`
    const { key } = await createApiKey(db, 'bench', [
      'btcpay.store.cancreateinvoice',
      'btcpay.store.canmodifyinvoices',
      'btcpay.store.webhooks.canmodifywebhooks',
    ])
    const storeId = await storeIdOf(db)
    const headers = { authorization: `token ${key}`, 'content-type': 'application/json' }
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${base}/api/v1/stores/${storeId}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      })
      const text = await response.text()
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`)
      return JSON.parse(text) as { id: string }
    }

    const greenfield = await load(INVOICES, async (n) => {
      await post('/invoices', {
        amount: '19.99',
        metadata: { orderId: `bench-${n}`, buyerEmail: 'b@example.com' },
      })
    })
    console.log(
      `${kind.padEnd(9)} ${INVOICES} invoices, ${CLIENTS} clients: ${greenfield.perSecond} invoices/s, ` +
        `p50 ${greenfield.p50} ms, p99 ${greenfield.p99} ms`,
    )
    const epusdt = await load(INVOICES, async (n) => {
      const response = await fetch(`${base}/api/v1/order/create-transaction`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(
          epusdtSigned({
            order_id: `bench-ep-${n}`,
            amount: 72,
            notify_url: `http://127.0.0.1:${port(receiver)}/epusdt`,
            trade_type: 'usdt.trc20',
          }),
        ),
      })
      const text = await response.text()
      if (response.status !== 200) throw new Error(`create-transaction: ${response.status} ${text}`)
    })
    console.log(
      `${''.padEnd(9)} ${INVOICES} epusdt create-transaction, ${CLIENTS} clients: ${epusdt.perSecond} orders/s, ` +
        `p50 ${epusdt.p50} ms, p99 ${epusdt.p99} ms`,
    )

    await post('/webhooks', { url: `http://127.0.0.1:${port(receiver)}/hook` })
    worker.start()
    const delays: number[] = []
    for (let i = 0; i < WEBHOOK_SAMPLES; i++) {
      const invoice = await post('/invoices', { amount: '5.00' })
      await worker.drain() // InvoiceCreated out of the way
      const settledAt = performance.now()
      await post(`/invoices/${invoice.id}/status`, { status: 'Settled' })
      while (!arrived.has(invoice.id)) await new Promise((r) => setTimeout(r, 1))
      delays.push((arrived.get(invoice.id) as number) - settledAt)
    }
    const d = delays.sort((a, b) => a - b)
    console.log(
      `${''.padEnd(9)} InvoiceSettled webhook after the settling call: p50 ${quantile(d, 0.5).toFixed(1)} ms, ` +
        `max ${d[d.length - 1]?.toFixed(1)} ms (${WEBHOOK_SAMPLES} invoices)`,
    )
  } finally {
    await worker.stop()
    receiver.close()
    await app.close()
    await shop.close()
  }
}

await onEngines(run)
