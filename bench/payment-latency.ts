import { spawn } from 'node:child_process'
import { sql } from 'drizzle-orm'
import { buildApp } from '../src/server/app'
import { openDatabase } from '../src/server/db/client'
import { seedOnce } from '../src/server/db/seed'
import { parseEnv } from '../src/server/env'
import { createPaymentWatcher } from '../src/server/payments/payment-watcher'
import { addWalletAddresses } from '../src/server/wallets/wallets.repo'
import { testAddresses } from '../tests/support/test-addresses'
import { freePort } from '../tests/support/wait'

// Time from POST /_sim/transfers (confirmed) to the order reading paid, with default settings
// (EXPLORER_MAX_RPS 5, 3 s per-order interval), on a fresh embedded database (or DATABASE_URL).
// `npm run bench:payments`. Prints median and worst per scenario and the explorer's peak rate.

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12)
// The devchain runs in its own process, as TronGrid would: its request clock is not held up by
// this process's database work, so the peak rate it reports is what the explorer would see.
const devchainPort = await freePort()
const devchainProcess = spawn(process.execPath, ['--import', 'tsx', 'tools/devchain/main.ts'], {
  env: { ...process.env, DEVCHAIN_PORT: String(devchainPort) },
  stdio: 'ignore',
})
const chainUrl = `http://127.0.0.1:${devchainPort}`
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${chainUrl}/_sim/state`)).ok) break
  } catch {}
  if (i > 200) throw new Error('the devchain did not start')
  await new Promise((r) => setTimeout(r, 50))
}
const chain = {
  url: chainUrl,
  async transfer(body: Record<string, unknown>) {
    const response = await fetch(`${chainUrl}/_sim/transfers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (!response.ok) throw new Error(await response.text())
  },
  async stats() {
    return (await (await fetch(`${chainUrl}/_sim/stats`)).json()) as {
      requests: number
      peakPerSecond: number
    }
  },
  async resetStats() {
    await fetch(`${chainUrl}/_sim/stats/reset`, { method: 'POST' })
  },
}
const dataDir = `.tmp/bench-${Date.now()}`
const env = parseEnv({
  DATA_DIR: dataDir,
  DATABASE_URL: process.env.DATABASE_URL,
  TRON_API_URL: chain.url,
  PRICE_SOURCE: 'fixed:0.25',
  LOG_LEVEL: 'silent',
  // Every order comes from this one client.
  CHECKOUT_PENDING_PER_CLIENT: '100000',
  CHECKOUT_PENDING_PER_EMAIL: '100000',
  CHECKOUT_CREATIONS_PER_MINUTE: '100000',
})
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
await seedOnce(database.db)
await database.db.execute(sql`delete from wallet_addresses`)
await database.db.execute(sql`delete from payments`)
await database.db.execute(sql`delete from orders`)
const app = await buildApp({ env, database })
await app.listen({ port: 0, host: '127.0.0.1' })
const address = app.server.address()
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
const watcher = createPaymentWatcher({
  db: database.db,
  client: app.services.tron,
  toleranceMicros: app.services.toleranceMicros,
  fulfil: app.services.fulfil,
  concurrency: Math.min(4, Math.max(1, Math.ceil(env.EXPLORER_MAX_RPS / 2))),
})
await addWalletAddresses(database.db, testAddresses(150, `bench ${Date.now()}`))

async function call(name: string, payload: unknown) {
  const response = await fetch(`${base}/rpc/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  })
  return (await response.json()) as Record<string, unknown>
}

const { products } = (await call('fetch_products', {})) as {
  products: { id: number; price: number; is_free: boolean }[]
}
const product = products.find((p) => !p.is_free && p.price > 0) as { id: number; price: number }

async function placeOrder() {
  const body = await call('secure_create_order', {
    p_email: 'bench@example.com',
    p_items: [{ product: { id: product.id }, quantity: 1 }],
    p_total: product.price,
  })
  if (!body.success) throw new Error(JSON.stringify(body))
  return { id: body.order_id as string, address: body.wallet_address as string }
}

async function isPaid(id: string): Promise<boolean> {
  const rows = (await database.db.execute(sql`select status from orders where id = ${id}`)) as unknown as {
    rows: { status: string }[]
  }
  return rows.rows[0]?.status === 'paid'
}

/** One payment: transfer, then wait until the database says paid. `watch` plays the payment page. */
async function measure(order: { id: string; address: string }, watch: boolean): Promise<number> {
  let watching: NodeJS.Timeout | undefined
  if (watch) {
    await call('secure_get_order_status', { p_order_id: order.id })
    watching = setInterval(() => void call('secure_get_order_status', { p_order_id: order.id }), 3000)
  }
  // The buyer pays at a random moment, not in step with the watcher.
  await new Promise((r) => setTimeout(r, Math.random() * 3000))
  const start = performance.now()
  await chain.transfer({ to: order.address, amount: product.price.toFixed(2) })
  while (!(await isPaid(order.id))) await new Promise((r) => setTimeout(r, 10))
  clearInterval(watching)
  return performance.now() - start
}

function summary(name: string, times: number[]) {
  const sorted = [...times].sort((a, b) => a - b)
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0
  const worst = sorted[sorted.length - 1] ?? 0
  console.log(
    `${name.padEnd(52)} n=${String(times.length).padStart(3)}  median ${(median / 1000).toFixed(2)} s  worst ${(worst / 1000).toFixed(2)} s`,
  )
}

watcher.start()
console.log(`payment latency, EXPLORER_MAX_RPS=${env.EXPLORER_MAX_RPS}, database ${database.kind}`)

await chain.resetStats()
const single: number[] = []
for (let i = 0; i < ROUNDS; i++) single.push(await measure(await placeOrder(), false))
summary('1 pending order', single)

// 100 pending orders: the ones paid are drawn from the pending set, which is topped up to 100.
const pending = await Promise.all(Array.from({ length: 100 }, () => placeOrder()))
for (const watch of [true, false]) {
  const times: number[] = []
  for (let i = 0; i < ROUNDS; i++) {
    const index = Math.floor(Math.random() * pending.length)
    const [order] = pending.splice(index, 1)
    if (!order) break
    times.push(await measure(order, watch))
    pending.push(await placeOrder())
  }
  summary(`100 pending, ${watch ? 'buyer on the payment page' : 'tab closed (nobody asking)'}`, times)
}
const stats = await chain.stats()
console.log(
  `explorer requests ${stats.requests}, peak ${stats.peakPerSecond} in any 1 s window (budget ${env.EXPLORER_MAX_RPS}/s)`,
)

await watcher.stop()
await app.close()
await database.close()
devchainProcess.kill('SIGTERM')
process.exit(0)
