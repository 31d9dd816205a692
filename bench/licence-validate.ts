// Licence validation throughput: the seller's apps call POST /v1/licenses/validate (key and
// instance, form-encoded, as Lemon Squeezy's clients send it) over real HTTP from a process of
// their own, against the shop on the embedded PGlite and (with DATABASE_URL) on PostgreSQL. Each
// answer is a database read and a freshly signed Ed25519 token. Prints requests per second
// (wall clock, and per CPU-second of the shop's process: what one core gives), p50/p99 of one
// call, and the size of a licence token in bytes.
//   npm run bench:licences                      (PGlite only)
//   DATABASE_URL=postgres://... npm run bench:licences
//   BENCH_ENGINES=postgres, BENCH_CALLS (default 5000), BENCH_CLIENTS (default 16)

import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { buildApp } from '../src/server/app'
import { buyKeys, licensedProduct } from '../tests/support/licence-fixture'
import type { TestApp } from '../tests/support/test-app'
import { onEngines, openBenchShop } from './support/bench-db'
import { quantile } from './support/run-load'

const CALLS = Number(process.env.BENCH_CALLS ?? 5000)
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16)
const KEYS = 100

interface Report {
  latencies: number[]
  failures: number
  firstFailure?: unknown
  elapsed: number
  cpuSeconds: number
}

function load(base: string, licences: { key: string; instance: string }[], total: number): Promise<Report> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        join(import.meta.dirname, 'support', 'licence-load.mjs'),
        base,
        String(CLIENTS),
        String(total),
        JSON.stringify(licences),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
    })
    child.on('error', reject)
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load exited ${code}`)),
    )
  })
}

async function run(kind: 'pglite' | 'postgres'): Promise<void> {
  const shop = await openBenchShop(kind, {
    LICENCE_RATE_PER_CLIENT: '10000000',
    LICENCE_RATE_PER_KEY: '10000000',
    CHECKOUT_PENDING_PER_CLIENT: '100000',
    CHECKOUT_CREATIONS_PER_MINUTE: '100000',
    CHECKOUT_HELD_PER_NETWORK: '100000',
    CHECKOUT_RESERVE_PERCENT: '0',
  })
  const app = await buildApp({ env: shop.env, database: shop.database })
  try {
    await app.listen({ port: 0, host: '127.0.0.1' })
    const address = app.server.address()
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    const t = { app, database: shop.database, env: shop.env } as unknown as TestApp
    const productId = await licensedProduct(t, { limit: 3, days: 365, name: 'Bench App' })
    const licences: { key: string; instance: string }[] = []
    for (let i = 0; i < KEYS / 50; i++) {
      const { keys } = await buyKeys(t, productId, 50)
      for (const key of keys) {
        const answer = await fetch(`${base}/v1/licenses/activate`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ license_key: key, instance_name: 'Bench machine' }).toString(),
        })
        const body = (await answer.json()) as { instance: { id: string }; license_token: string }
        licences.push({ key, instance: body.instance.id })
      }
    }
    const sample = await fetch(`${base}/v1/licenses/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        license_key: licences[0]!.key,
        instance_id: licences[0]!.instance,
      }).toString(),
    })
    const sampleBody = await sample.text()
    const token = (JSON.parse(sampleBody) as { license_token: string }).license_token

    await load(base, licences, Math.min(1000, CALLS)) // warm-up
    const cpu0 = process.cpuUsage()
    const report = await load(base, licences, CALLS)
    const cpu = process.cpuUsage(cpu0)
    const serverCpu = (cpu.user + cpu.system) / 1e6
    const sorted = report.latencies.sort((a, b) => a - b)
    const ms = (v: number) => v.toFixed(1)
    console.log(
      `${kind.padEnd(9)} ${CALLS} validates, ${CLIENTS} connections: ${(CALLS / report.elapsed).toFixed(0)} req/s wall, ` +
        `${(CALLS / serverCpu).toFixed(0)} req per CPU-second of the shop process, ` +
        `p50 ${ms(quantile(sorted, 0.5))} ms, p99 ${ms(quantile(sorted, 0.99))} ms, failures ${report.failures}` +
        `${report.firstFailure ? ` (first: ${JSON.stringify(report.firstFailure)})` : ''}`,
    )
    console.log(
      `${''.padEnd(9)} token ${Buffer.byteLength(token)} bytes, whole answer ${Buffer.byteLength(sampleBody)} bytes`,
    )
  } finally {
    await app.close()
    await shop.close()
  }
}

await onEngines(run)
