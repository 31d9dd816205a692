// The admin at scale, on the embedded PGlite and (with DATABASE_URL) on PostgreSQL: a shop with
// BENCH_ORDERS (1,000,000) orders, each with its address lease, and for every paid one its ledger
// row and licence key, written with set-based SQL (generate_series). Through the real app over
// HTTP (session check included) it prints p50 and p95 of the orders search (e-mail, id, address),
// the status filter and paging (target p95 < 100 ms), the sales view (p95 < 300 ms), the CSV
// export of every order with the process's memory while it streams, and the buyer's checkout
// on an empty shop of its own and on the big one. Every table's secondary indexes are built once
// after the rows are written, from the database's own definitions.
//   npm run bench:admin                                       (PGlite, and PostgreSQL when set)
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:admin
//   BENCH_ENGINES=pglite|postgres, BENCH_ORDERS, BENCH_RUNS (40), BENCH_CHECKOUT_ORDERS (1,000)
//   BENCH_KEEP=1 keeps the big shop (PGlite: <tmp>/stablecart_bench_admin_<orders>, PostgreSQL: the
//   database of that name) and measures it again at the next run without writing the orders; drop
//   them by hand when done.
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { sql } from 'drizzle-orm'
import { ensureFirstAdmin, SESSION_COOKIE } from '../src/server/admin/admin-auth'
import { buildApp } from '../src/server/app'
import type { Database } from '../src/server/db/client'
import { seedOnce } from '../src/server/db/seed'
import { refreshStatistics } from '../src/server/db/statistics'
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
    insert into orders (id, created_at, email, items, total_cents, wallet_address, status, window_ends_at, grace_until,
                        paid_at, amount_received_units, native_received_units, native_rate_e8, tx_hash, access_token,
                        cancelled_at, cancel_reason, client_key)
    select bench_order_id(i),
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
    select 'T' || substr(md5('address ' || (i % 20000)), 1, 33), bench_order_id(i),
           now() - (i || ' seconds')::interval * 40,
           case when i % 100 <> 0 then now() - (i || ' seconds')::interval * 40 + interval '3 minutes' end,
           case when i % 100 <> 0 then now() - (i || ' seconds')::interval * 40 + interval '63 minutes' end
    from generate_series(${first}::int, ${last}::int) as i`)
  await db.execute(sql`
    insert into payments (order_id, status, tx_id, source, token, amount_units, from_address, to_address,
                          block_number, block_timestamp, created_at)
    select bench_order_id(i), 'credited', md5('tx ' || i),
           case when i % 8 = 2 then 'native' else 'log' end,
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
    select ${keyProduct}::int, 'BENCH-' || i, bench_order_id(i), true,
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
  return `${(CHECKOUT_ORDERS / load.elapsed).toFixed(0)} orders/s, p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p95 ${quantile(sorted, 0.95).toFixed(1)} ms, p99 ${quantile(sorted, 0.99).toFixed(1)} ms, failures ${load.failures}`
}

/** A shop listening on a free port: its base URL and its paid products. */
async function listen(shop: Awaited<ReturnType<typeof openBenchShop>>, addresses: number) {
  const { env, database } = shop
  await seedOnce(database.db)
  await ensureFirstAdmin(database.db, env)
  await addWalletAddresses(database.db, testAddresses(addresses, `bench admin ${Date.now()}`))
  const app = await buildApp({ env, database })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  return { app, base, products: await paidProducts(base) }
}

const BULK_TABLES = ['orders', 'address_leases', 'payments', 'license_keys']

/**
 * Writes the orders as a bulk load does: the four tables' secondary indexes (those that back no
 * constraint) are dropped first and built again at the end, each once from sorted rows instead of
 * being merged into at every row; the definitions are the database's own (`pg_indexes`), so the
 * indexes built are exactly the migrations'.
 */
async function writeAllOrders(kind: string, database: Database, keyProduct: number) {
  const { db } = database
  const indexes = rowsOf<{ name: string; def: string }>(
    await db.execute(sql`
      select i.indexname as name, i.indexdef as def from pg_indexes i
      where i.schemaname = 'public' and i.tablename in (${sql.join(
        BULK_TABLES.map((t) => sql`${t}`),
        sql`, `,
      )})
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`),
  )
  for (const index of indexes) await db.execute(sql.raw(`drop index "${index.name}"`))
  // An order's id from its buyer number: md5 with the version-4 and variant bits set, as the ids
  // gen_random_uuid() gives the shop's orders (the admin's calls accept only those).
  await db.execute(sql`
    create or replace function bench_order_id(i int) returns uuid language sql immutable as $$
      select (substr(m, 1, 12) || '4' || substr(m, 14, 3) || '8' || substr(m, 18))::uuid from md5('order ' || i) as m
    $$`)
  for (let first = 1; first <= ORDERS; first += CHUNK) {
    await writeOrders(database, first, Math.min(ORDERS, first + CHUNK - 1), keyProduct)
    process.stderr.write(`\r${kind}: ${Math.min(ORDERS, first + CHUNK - 1)} orders written`)
  }
  process.stderr.write('\n')
  await db.execute(sql`drop function bench_order_id(int)`)
  await db.execute(sql`set maintenance_work_mem = '128MB'`)
  for (const index of indexes) await db.execute(sql.raw(index.def))
  await db.execute(sql`reset maintenance_work_mem`)
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows

async function run(kind: 'pglite' | 'postgres'): Promise<void> {
  // The checkout of an empty shop, on a fresh database of its own.
  const empty = await openBenchShop(kind, { ADMIN_PASSWORD: 'bench-password', TRUST_PROXY: 'true' })
  let emptyCheckout: string
  try {
    const { app, base, products } = await listen(empty, 2 * CHECKOUT_ORDERS + 500)
    await runLoad(base, products, { clients: CHECKOUT_CLIENTS, total: 200, firstBuyer: 1 << 22 })
    emptyCheckout = `${await checkout(base, products, 1 << 21)}  (load ${load()})`
    await app.close()
  } finally {
    await empty.close()
  }

  // BENCH_KEEP=1 keeps the big shop (a data folder and a database named after its size) and a later
  // run measures it again without writing the orders.
  const shop = await openBenchShop(
    kind,
    { ADMIN_PASSWORD: 'bench-password', TRUST_PROXY: 'true' },
    process.env.BENCH_KEEP ? `stablecart_bench_admin_${ORDERS}` : undefined,
  )
  const { database } = shop
  try {
    const { app, base, products } = await listen(shop, CHECKOUT_ORDERS + 500)
    const [present] = rowsOf<{ n: number }>(
      await database.db.execute(sql`select count(*)::int as n from orders`),
    )
    if ((present?.n ?? 0) < ORDERS) {
      const started = Date.now()
      await writeAllOrders(kind, database, products[0]?.id ?? 1)
      const written = Date.now() - started
      // What keeps the statistics current in a running shop: autovacuum on PostgreSQL, the shop's
      // own statistics keeper on PGlite.
      if (kind === 'postgres') await database.db.execute(sql`vacuum analyze`)
      else await refreshStatistics(database.db)
      console.log(
        `\n${kind}: ${ORDERS} orders with leases, ${Math.round(ORDERS * 0.7425)} ledger rows and keys written and indexed in ${(written / 1000).toFixed(0)} s (+ statistics ${((Date.now() - started - written) / 1000).toFixed(0)} s), load ${load()}`,
      )
    } else {
      console.log(`\n${kind}: ${present?.n} orders already written (BENCH_KEEP)`)
    }

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

    // The admin's Next and Previous from a deep page go by the order at the page's edge (keyset).
    const deepPage = Math.min(2000, Math.max(2, Math.floor((ORDERS * 0.37) / 25)))
    const before = (
      await call('secure_fetch_orders', { p_status: 'paid', p_page: deepPage - 1, p_page_size: 25 })
    ).body.orders as { id: string }[]
    const after = (
      await call('secure_fetch_orders', { p_status: 'paid', p_page: deepPage + 1, p_page_size: 25 })
    ).body.orders as { id: string }[]
    const buyer = Math.ceil(ORDERS * 0.42)
    const cases: [string, string, Record<string, unknown>][] = [
      ['first page, all statuses', 'secure_fetch_orders', {}],
      ['status filter (paid)', 'secure_fetch_orders', { p_status: 'paid' }],
      ['status filter (pending)', 'secure_fetch_orders', { p_status: 'pending' }],
      ['page 200 of all', 'secure_fetch_orders', { p_page: 200 }],
      [`page ${deepPage} of paid by number`, 'secure_fetch_orders', { p_status: 'paid', p_page: deepPage }],
      [
        `page ${deepPage} of paid, Next`,
        'secure_fetch_orders',
        { p_status: 'paid', p_page: deepPage, p_after_id: before.at(-1)?.id },
      ],
      [
        `page ${deepPage} of paid, Previous`,
        'secure_fetch_orders',
        { p_status: 'paid', p_page: deepPage, p_before_id: after[0]?.id },
      ],
      ['search whole e-mail', 'secure_fetch_orders', { p_search: `buyer${buyer}@example${buyer % 97}.com` }],
      ['search e-mail substring', 'secure_fetch_orders', { p_search: `BUYER${String(buyer).slice(0, -1)}` }],
      ['search id prefix', 'secure_fetch_orders', { p_search: sample.id.slice(0, 8) }],
      ['search whole id', 'secure_fetch_orders', { p_search: sample.id }],
      ['search address substring', 'secure_fetch_orders', { p_search: sample.wallet_address.slice(3, 15) }],
      ['search + status', 'secure_fetch_orders', { p_search: 'example13.com', p_status: 'pending' }],
      ['search, no match', 'secure_fetch_orders', { p_search: 'nobody-at-all' }],
      ['sales', 'secure_fetch_sales', {}],
    ]
    console.log(`load average ${load()}`)
    console.log(`${'case'.padEnd(34)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}  matches`)
    for (const [label, name, payload] of cases) {
      const times: number[] = []
      let matches = ''
      // Three untimed calls first: the figures are of a warm shop, not of the first reads from disk.
      for (let i = 0; i < 3; i++) await call(name, payload).catch(() => undefined)
      for (let i = 0; i < RUNS; i++) {
        const answer = await call(name, payload).catch((error: Error) => error)
        if (answer instanceof Error) {
          matches = `refused: ${answer.message.slice(0, 80)}`
          break
        }
        const { elapsed, body } = answer
        times.push(elapsed)
        matches =
          name === 'secure_fetch_orders'
            ? String(body.total_count)
            : JSON.stringify(body.orders_by_status ?? '')
      }
      times.sort((a, b) => a - b)
      console.log(`${label.padEnd(34)} ${ms(quantile(times, 0.5))} ${ms(quantile(times, 0.95))}  ${matches}`)
    }

    // The CSV export of every order, read as a browser would, with this process's resident memory
    // (server, PGlite thread and reader) sampled every tenth of the rows: flat means it does not
    // grow with the rows written.
    const rssBefore = rssMb()
    let peak = rssBefore
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb())
    }, 50)
    const t0 = performance.now()
    const res = await fetch(`${base}/api/admin/export/orders.csv`, { headers: { cookie } })
    let bytes = 0
    let lines = 0
    const curve: string[] = []
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.length
      for (const b of chunk) if (b === 10) lines++
      if (lines >= ((curve.length + 1) * ORDERS) / 10)
        curve.push(`${curve.length + 1}0%: ${rssMb().toFixed(0)}`)
    }
    clearInterval(sampler)
    console.log(
      `CSV export: ${lines - 1} orders, ${(bytes / 1e6).toFixed(0)} MB in ${((performance.now() - t0) / 1000).toFixed(1)} s, load ${load()}\n  process RSS MB: before ${rssBefore.toFixed(0)}, ${curve.join(', ')}; at most ${peak.toFixed(0)}`,
    )

    console.log(`checkout, empty shop:          ${emptyCheckout}`)
    // Buyers no earlier run of a kept shop has used.
    const buyers = (1 << 24) + (Date.now() % 1_000_000_000)
    console.log(`checkout, ${ORDERS} orders: ${await checkout(base, products, buyers)}  (load ${load()})`)
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
