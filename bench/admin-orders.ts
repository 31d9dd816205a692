// The admin at scale, on the embedded PGlite and (with DATABASE_URL) on PostgreSQL: a shop with
// BENCH_ORDERS (1,000,000) orders, each with its address lease, and for every paid one its ledger
// row and licence key, written with set-based SQL (generate_series). Through the real app over
// HTTP (session check included) it prints p50 and p95 of the orders search (e-mail, id, address),
// the status filter and paging (target p95 < 100 ms), the sales dashboard (p95 < 300 ms), the CSV
// export of every order with the process's memory while it streams, and the buyer's checkout
// before the orders were written (an empty shop) and after.
//   npm run bench:admin                                       (PGlite, and PostgreSQL when set)
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:admin
//   BENCH_ENGINES=pglite|postgres, BENCH_ORDERS, BENCH_RUNS (40), BENCH_CHECKOUT_ORDERS (1,000)
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { sql } from 'drizzle-orm'
import { ensureFirstAdmin, SESSION_COOKIE } from '../src/server/admin/admin-auth'
import { buildApp } from '../src/server/app'
import type { Database } from '../src/server/db/client'
import { seedOnce } from '../src/server/db/seed'
import { addWalletAddresses } from '../src/server/wallets/wallets.repo'
import { testAddresses } from '../tests/support/test-addresses'
import { onEngines, openBenchShop } from './support/bench-db'
import { paidProducts, quantile, runLoad } from './support/run-load'

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 40)
const CHECKOUT_ORDERS = Number(process.env.BENCH_CHECKOUT_ORDERS ?? 1000)
const CHECKOUT_CLIENTS = 20
const CHUNK = 100_000

/** Resident memory of this process (the PGlite thread included), in MB. */
function rssMb(): number {
  const status = readFileSync('/proc/self/status', 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
}

const ms = (v: number) => v.toFixed(1).padStart(8)

/** Orders, leases, ledger rows and keys for buyers first..last, one statement per table. */
async function writeOrders(database: Database, first: number, last: number, keyProduct: number) {
  const { db } = database
  // Ids derive from the buyer number so the other tables can name their order without a join.
  // One order in a hundred is pending, a quarter cancelled, the rest paid or completed; addresses
  // come back every 20,000 orders, as a pool's do.
  await db.execute(sql`
    insert into orders (id, created_at, email, items, total_cents, wallet_address, status, expires_at, grace_until,
                        paid_at, amount_received_units, trx_received_sun, trx_rate_e8, tx_hash, access_token,
                        cancelled_at, cancel_reason, client_key)
    select md5('order ' || i)::uuid,
           now() - (i || ' seconds')::interval * 40,
           'buyer' || i || '@example' || (i % 97) || '.com',
           '[{"product":{"id":1,"name":"4G Mobile Proxy Manager Pro","price_cents":4999},"quantity":1}]'::jsonb,
           4999,
           'T' || substr(md5('address ' || (i % 20000)), 1, 33),
           case when i % 100 = 0 then 'pending' when i % 4 = 3 then 'cancelled'
                when i % 4 = 1 then 'paid' else 'completed' end,
           now() - (i || ' seconds')::interval * 40 + interval '30 minutes',
           now() - (i || ' seconds')::interval * 40 + interval '60 minutes',
           case when i % 100 <> 0 and i % 4 <> 3 then now() - (i || ' seconds')::interval * 40 + interval '3 minutes' end,
           case when i % 100 <> 0 and i % 4 <> 3 and i % 8 <> 2 then 49990000 else 0 end,
           case when i % 100 <> 0 and i % 8 = 2 then 199960000 else 0 end,
           case when i % 8 = 2 then 25000000 end,
           case when i % 100 <> 0 and i % 4 <> 3 then md5('tx ' || i) end,
           case when i % 100 <> 0 and i % 4 <> 3 then md5('token ' || i) end,
           case when i % 100 <> 0 and i % 4 = 3 then now() - (i || ' seconds')::interval * 40 + interval '60 minutes' end,
           case when i % 100 <> 0 and i % 4 = 3 then 'expired' end,
           md5('client ' || (i % 50000))
    from generate_series(${first}::int, ${last}::int) as i`)
  await db.execute(sql`
    insert into address_leases (address, order_id, started_at, ended_at, cooldown_until)
    select 'T' || substr(md5('address ' || (i % 20000)), 1, 33), md5('order ' || i)::uuid,
           now() - (i || ' seconds')::interval * 40,
           case when i % 100 <> 0 then now() - (i || ' seconds')::interval * 40 + interval '3 minutes' end,
           case when i % 100 <> 0 then now() - (i || ' seconds')::interval * 40 + interval '63 minutes' end
    from generate_series(${first}::int, ${last}::int) as i`)
  await db.execute(sql`
    insert into payments (order_id, status, tx_id, source, token, amount_units, from_address, to_address,
                          block_number, block_timestamp, created_at)
    select md5('order ' || i)::uuid, 'credited', md5('tx ' || i),
           case when i % 8 = 2 then 'trx' else 'log' end,
           case when i % 8 = 2 then 'TRX' else 'USDT' end,
           case when i % 8 = 2 then 199960000 else 49990000 end,
           'T' || substr(md5('payer ' || i), 1, 33),
           'T' || substr(md5('address ' || (i % 20000)), 1, 33),
           80000000 - i,
           (extract(epoch from now()) * 1000)::bigint - i::bigint * 40000 + 180000,
           now() - (i || ' seconds')::interval * 40 + interval '3 minutes'
    from generate_series(${first}::int, ${last}::int) as i
    where i % 100 <> 0 and i % 4 <> 3`)
  await db.execute(sql`
    insert into license_keys (product_id, key, order_id, generated, assigned_at, created_at)
    select ${keyProduct}::int, 'BENCH-' || i, md5('order ' || i)::uuid, true,
           now() - (i || ' seconds')::interval * 40 + interval '3 minutes',
           now() - (i || ' seconds')::interval * 40 + interval '3 minutes'
    from generate_series(${first}::int, ${last}::int) as i
    where i % 100 <> 0 and i % 4 <> 3`)
}

async function checkout(base: string, products: { id: number; price: number }[], firstBuyer: number) {
  const load = await runLoad(base, products, {
    clients: CHECKOUT_CLIENTS,
    total: CHECKOUT_ORDERS,
    firstBuyer,
  })
  const sorted = [...load.latencies].sort((a, b) => a - b)
  return `${(CHECKOUT_ORDERS / load.elapsed).toFixed(0)} orders/s, p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p99 ${quantile(sorted, 0.99).toFixed(1)} ms, failures ${load.failures}`
}

async function run(kind: 'pglite' | 'postgres'): Promise<void> {
  const shop = await openBenchShop(kind, { ADMIN_PASSWORD: 'bench-password', TRUST_PROXY: 'true' })
  const { env, database } = shop
  try {
    await seedOnce(database.db)
    await ensureFirstAdmin(database.db, env)
    await addWalletAddresses(
      database.db,
      testAddresses(2 * CHECKOUT_ORDERS + 500, `bench admin ${Date.now()}`),
    )
    const app = await buildApp({ env, database })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const address = app.server.address()
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    const products = await paidProducts(base)
    // Warm-up, then the checkout of an empty shop.
    await runLoad(base, products, { clients: CHECKOUT_CLIENTS, total: 200, firstBuyer: 1 << 22 })
    const emptyCheckout = await checkout(base, products, 1 << 21)

    const started = Date.now()
    const keyProduct = products[0]?.id ?? 1
    // A shop grows an order at a time; a bulk load is faster with the trigram index built once at
    // the end than merged in at every statement. It is rebuilt with migration 0020's definition.
    await database.db.execute(sql`drop index if exists orders_search_trgm_idx`)
    for (let first = 1; first <= ORDERS; first += CHUNK) {
      await writeOrders(database, first, Math.min(ORDERS, first + CHUNK - 1), keyProduct)
      process.stderr.write(`\r${kind}: ${Math.min(ORDERS, first + CHUNK - 1)} orders written`)
    }
    await database.db.execute(sql`
      create index orders_search_trgm_idx on orders
        using gin ((lower(id::text || ' ' || email || ' ' || wallet_address)) gin_trgm_ops)
        with (gin_pending_list_limit = 1024)`)
    process.stderr.write('\n')
    const written = Date.now() - started
    await database.db.execute(sql`analyze`)
    console.log(
      `\n${kind}: ${ORDERS} orders with leases, ${Math.round(ORDERS * 0.7425)} ledger rows and keys written and indexed in ${(written / 1000).toFixed(0)} s (+ ANALYZE ${((Date.now() - started - written) / 1000).toFixed(0)} s)`,
    )

    const login = await fetch(`${base}/rpc/secure_admin_login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ p_username: 'admin', p_password: 'bench-password' }),
    })
    const cookie = String(login.headers.get('set-cookie')).split(';')[0] as string
    if (!cookie.startsWith(SESSION_COOKIE)) throw new Error('login failed')
    const call = async (name: string, payload: Record<string, unknown>) => {
      const t0 = performance.now()
      const res = await fetch(`${base}/rpc/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify(payload),
      })
      const body = (await res.json()) as Record<string, unknown>
      if (!res.ok) throw new Error(`${name}: ${res.status} ${JSON.stringify(body)}`)
      return { elapsed: performance.now() - t0, body }
    }
    const sampleId = (await call('secure_fetch_orders', { p_page: Math.min(300, Math.ceil(ORDERS / 1000)) }))
      .body.orders as {
      id: string
      wallet_address: string
    }[]
    const sample = sampleId[7] as { id: string; wallet_address: string }

    const buyer = Math.ceil(ORDERS * 0.42)
    const cases: [string, string, Record<string, unknown>][] = [
      ['first page, all statuses', 'secure_fetch_orders', {}],
      ['status filter (paid)', 'secure_fetch_orders', { p_status: 'paid' }],
      ['status filter (pending)', 'secure_fetch_orders', { p_status: 'pending' }],
      ['page 200 of all', 'secure_fetch_orders', { p_page: 200 }],
      ['page 2,000 of paid', 'secure_fetch_orders', { p_status: 'paid', p_page: 2000 }],
      ['search whole e-mail', 'secure_fetch_orders', { p_search: `buyer${buyer}@example${buyer % 97}.com` }],
      ['search e-mail substring', 'secure_fetch_orders', { p_search: `BUYER${String(buyer).slice(0, -1)}` }],
      ['search id prefix', 'secure_fetch_orders', { p_search: sample.id.slice(0, 8) }],
      ['search whole id', 'secure_fetch_orders', { p_search: sample.id }],
      ['search address substring', 'secure_fetch_orders', { p_search: sample.wallet_address.slice(3, 15) }],
      ['search + status', 'secure_fetch_orders', { p_search: 'example13.com', p_status: 'pending' }],
      ['search, no match', 'secure_fetch_orders', { p_search: 'nobody-at-all' }],
      ['sales dashboard', 'secure_fetch_sales_dashboard', {}],
    ]
    console.log(`load average ${load()}`)
    console.log(`${'case'.padEnd(28)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}  matches`)
    for (const [label, name, payload] of cases) {
      const times: number[] = []
      let matches = ''
      for (let i = 0; i < RUNS; i++) {
        const { elapsed, body } = await call(name, payload)
        times.push(elapsed)
        matches =
          name === 'secure_fetch_orders'
            ? String(body.total_count)
            : JSON.stringify(body.orders_by_status ?? '')
      }
      times.sort((a, b) => a - b)
      console.log(`${label.padEnd(28)} ${ms(quantile(times, 0.5))} ${ms(quantile(times, 0.95))}  ${matches}`)
    }

    // The CSV export of every order, read as a browser would, with this process's memory sampled:
    // flat means the memory after a quarter of the rows is what it is at the end.
    const before = rssMb()
    let peak = before
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb())
    }, 50)
    const t0 = performance.now()
    const res = await fetch(`${base}/api/admin/export/orders.csv`, { headers: { cookie } })
    let bytes = 0
    let lines = 0
    const atQuarters: number[] = []
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.length
      for (const b of chunk) if (b === 10) lines++
      if (lines >= ((atQuarters.length + 1) * ORDERS) / 4) atQuarters.push(rssMb())
    }
    clearInterval(sampler)
    console.log(
      `CSV export: ${lines - 1} orders, ${(bytes / 1e6).toFixed(0)} MB in ${((performance.now() - t0) / 1000).toFixed(1)} s; process RSS ${before.toFixed(0)} MB before, ${atQuarters.map((v) => v.toFixed(0)).join(' / ')} MB after each quarter, at most ${peak.toFixed(0)} MB`,
    )

    console.log(`checkout, empty shop:          ${emptyCheckout}`)
    console.log(`checkout, ${ORDERS} orders: ${await checkout(base, products, (1 << 21) + CHECKOUT_ORDERS)}`)
    await app.close()
  } finally {
    await shop.close()
  }
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')
console.log(`load average at the start ${load()}`)
await onEngines(run)
console.log(`load average at the end ${load()}`)
