// Order creations under load: 50 concurrent clients placing orders over real HTTP against a pool of
// 5,000 addresses, on the embedded PGlite and (with DATABASE_URL) on PostgreSQL. Prints orders per
// second, p50/p99 of one creation, event-loop delay p99 during the run and /api/health p99.
//   npm run bench:orders                      (PGlite only)
//   DATABASE_URL=postgres://... npm run bench:orders
// Goals: PostgreSQL ≥ 1,000 orders/s with p99 < 50 ms; PGlite p99 ≤ 250 ms and event-loop delay
// p99 ≤ 50 ms.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import pg from 'pg'
import { buildApp } from '../src/server/app'
import { type Database, openDatabase } from '../src/server/db/client'
import { seedOnce } from '../src/server/db/seed'
import { parseEnv } from '../src/server/env'
import { addWalletAddresses } from '../src/server/wallets/wallets.repo'
import { testAddresses } from '../tests/support/test-addresses'

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50)
const POOL = Number(process.env.BENCH_POOL ?? 5000)
const ORDERS = Number(process.env.BENCH_ORDERS_TOTAL ?? 3000)

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
}

async function run(kind: 'pglite' | 'postgres'): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'stablecart-bench-orders-'))
  let dbName: string | undefined
  let databaseUrl: string | undefined
  if (kind === 'postgres') {
    const base = process.env.DATABASE_URL as string
    dbName = `stablecart_bench_${randomBytes(4).toString('hex')}`
    const admin = new pg.Client({ connectionString: base })
    await admin.connect()
    await admin.query(`create database ${dbName}`)
    await admin.end()
    const url = new URL(base)
    url.pathname = `/${dbName}`
    databaseUrl = url.toString()
  }
  const env = parseEnv({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    LOG_LEVEL: 'silent',
    PRICE_SOURCE: 'fixed:0.25',
    // Each simulated client has its own address (X-Forwarded-For) and places many orders.
    TRUST_PROXY: 'true',
    CHECKOUT_PENDING_PER_CLIENT: '100000',
    CHECKOUT_PENDING_PER_EMAIL: '100000',
    CHECKOUT_CREATIONS_PER_MINUTE: '100000',
  })
  const database: Database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
  try {
    await seedOnce(database.db)
    const addresses = testAddresses(POOL, `bench orders ${Date.now()}`)
    for (let i = 0; i < addresses.length; i += 1000) {
      await addWalletAddresses(database.db, addresses.slice(i, i + 1000))
    }
    const app = await buildApp({ env, database })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const address = app.server.address()
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    const post = async (name: string, payload: unknown, client = 0) => {
      const res = await fetch(`${base}/rpc/${name}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': `10.0.${client >> 8}.${client & 255}`,
        },
        body: JSON.stringify(payload),
      })
      return { status: res.status, body: (await res.json()) as Record<string, unknown> }
    }
    const { body } = await post('fetch_products', {})
    const products = (body.products as { id: number; price: number; is_free: boolean }[]).filter(
      (p) => !p.is_free && p.price > 0,
    )

    // Warm-up: connections, prepared plans, JIT.
    for (let i = 0; i < 20; i++) {
      const p = products[i % products.length] as { id: number; price: number }
      await post('secure_create_order', {
        p_email: `warm${i}@example.com`,
        p_items: [{ product: { id: p.id }, quantity: 1 }],
        p_total: p.price,
      })
    }

    const loop = monitorEventLoopDelay({ resolution: 5 })
    const latencies: number[] = []
    const health: number[] = []
    let failures = 0
    let next = 0
    let running = true
    loop.enable()
    const started = performance.now()
    const healthProbe = (async () => {
      while (running) {
        const t0 = performance.now()
        await fetch(`${base}/api/health`).then((r) => r.arrayBuffer())
        health.push(performance.now() - t0)
        await new Promise((r) => setTimeout(r, 20))
      }
    })()
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (;;) {
          const i = next++
          if (i >= ORDERS) return
          const p = products[i % products.length] as { id: number; price: number }
          const t0 = performance.now()
          const res = await post(
            'secure_create_order',
            {
              p_email: `buyer${i}@example.com`,
              p_items: [{ product: { id: p.id }, quantity: 1 }],
              p_total: p.price,
            },
            client + 1,
          )
          latencies.push(performance.now() - t0)
          if (res.status !== 200 || res.body.success !== true) failures++
        }
      }),
    )
    const elapsed = (performance.now() - started) / 1000
    running = false
    await healthProbe
    loop.disable()
    latencies.sort((a, b) => a - b)
    health.sort((a, b) => a - b)
    const fmt = (ms: number) => `${ms.toFixed(1)} ms`
    console.log(
      [
        `${kind.padEnd(8)} ${ORDERS} orders, ${CLIENTS} clients, pool ${POOL}:`,
        `${(ORDERS / elapsed).toFixed(0)} orders/s`,
        `p50 ${fmt(quantile(latencies, 0.5))}`,
        `p99 ${fmt(quantile(latencies, 0.99))}`,
        `event-loop delay p99 ${fmt(loop.percentile(99) / 1e6)} (max ${fmt(loop.max / 1e6)})`,
        `/api/health p99 ${fmt(quantile(health, 0.99))}`,
        `failures ${failures}`,
      ].join('  '),
    )
    await app.close()
  } finally {
    await database.close()
    rmSync(dataDir, { recursive: true, force: true })
    if (dbName) {
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL })
      await admin.connect()
      await admin.query(`drop database if exists ${dbName} with (force)`)
      await admin.end()
    }
  }
}

await run('pglite')
if (process.env.DATABASE_URL) await run('postgres')
else console.log('postgres  skipped: set DATABASE_URL to measure PostgreSQL too')
