// Order creations under load: 50 concurrent clients (in a process of their own, as real buyers are,
// each order from its own buyer under the default limits) place 4,000 orders over real HTTP against
// a pool of 5,000 addresses, on the embedded PGlite and (with DATABASE_URL) on PostgreSQL. Prints
// orders per second, p50/p99 of one creation, event-loop delay p99 and /api/health p99 during the
// run, and the CPU each order cost the server, PostgreSQL's backends and the buyers.
//   npm run bench:orders                      (PGlite only)
//   DATABASE_URL=postgres://... npm run bench:orders
//   BENCH_ENGINES=postgres, BENCH_ORDERS_TOTAL, BENCH_CLIENTS, BENCH_POOL, BENCH_KEEP_DB=1
// Goals: PostgreSQL ≥ 1,000 orders/s with p99 < 50 ms; PGlite p99 ≤ 250 ms and event-loop delay
// p99 ≤ 50 ms. With 50 clients always waiting, mean latency is 50 ÷ throughput (decision 018).

import { readFileSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import pg from 'pg'
import { buildApp } from '../src/server/app'
import { seedOnce } from '../src/server/db/seed'
import { addWalletAddresses } from '../src/server/wallets/wallets.repo'
import { testAddresses } from '../tests/support/test-addresses'
import { onEngines, openBenchShop } from './support/bench-db'
import { paidProducts, quantile, runLoad } from './support/run-load'

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50)
const POOL = Number(process.env.BENCH_POOL ?? 5000)
const ORDERS = Number(process.env.BENCH_ORDERS_TOTAL ?? 4000)
const WARM_UP = 200

/**
 * CPU seconds used so far by the PostgreSQL backends serving the bench's database (the server runs
 * on this machine; other databases' work, and the server's shared background processes, are not
 * counted). Backends that end meanwhile keep their last reading.
 */
async function backendCpu(admin: pg.Client, dbName: string, seen: Map<number, number>): Promise<number> {
  const { rows } = await admin.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [dbName],
  )
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
      seen.set(pid, (Number(fields[11]) + Number(fields[12])) / 100) // USER_HZ ticks
    } catch {
      // ended meanwhile
    }
  }
  return [...seen.values()].reduce((a, b) => a + b, 0)
}

async function run(kind: 'pglite' | 'postgres'): Promise<void> {
  // Each order comes from its own buyer (X-Forwarded-For, e-mail): the default limits apply.
  const shop = await openBenchShop(kind, { TRUST_PROXY: 'true' })
  const { env, database, dbName } = shop
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
    const products = await paidProducts(base)

    // Warm-up: connections, the functions' plans, and one burst of checkouts, from buyers of their
    // own (numbered from 2^20, so their addresses and e-mails never meet the measured ones).
    await runLoad(base, products, { clients: CLIENTS, total: WARM_UP, firstBuyer: 1 << 20 })

    const loop = monitorEventLoopDelay({ resolution: 5 })
    const health: number[] = []
    let running = true
    const serverCpu0 = process.cpuUsage()
    // The bench's own connection to PostgreSQL reads its backends' CPU before and after.
    const watcher = dbName ? new pg.Client({ connectionString: process.env.DATABASE_URL }) : undefined
    await watcher?.connect()
    const backends = new Map<number, number>()
    const dbCpu0 = watcher && dbName ? await backendCpu(watcher, dbName, backends) : 0
    loop.enable()
    const healthProbe = (async () => {
      while (running) {
        const t0 = performance.now()
        await fetch(`${base}/api/health`).then((r) => r.arrayBuffer())
        health.push(performance.now() - t0)
        await new Promise((r) => setTimeout(r, 20))
      }
    })()
    // The buyers are another process, as on a real network: their HTTP work is not the server's.
    const load = await runLoad(base, products, { clients: CLIENTS, total: ORDERS })
    const { latencies, failures, elapsed } = load
    if (load.firstFailure) console.error('first failure:', JSON.stringify(load.firstFailure))
    const serverCpu = process.cpuUsage(serverCpu0)
    const dbCpu = watcher && dbName ? (await backendCpu(watcher, dbName, backends)) - dbCpu0 : 0
    await watcher?.end()
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
        `CPU per order: server ${fmt((serverCpu.user + serverCpu.system) / 1000 / ORDERS)}` +
          (kind === 'postgres' ? `, PostgreSQL ${fmt((dbCpu * 1000) / ORDERS)}` : '') +
          `, buyers ${fmt((load.cpuSeconds * 1000) / ORDERS)}`,
      ].join('  '),
    )
    await app.close()
  } finally {
    await shop.close()
  }
}

await onEngines(run)
