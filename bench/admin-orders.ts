// Orders search and paging over 100,000 orders on PostgreSQL: p50 and p95 of one request,
// through the real app (session check included). Target: p95 under 100 ms. Then the sales
// dashboard over the same orders (paid ones spread over ~70 days, licence keys in stock): p95 under 200 ms.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/admin-orders.ts
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { ensureFirstAdmin, SESSION_COOKIE } from '../src/server/admin/admin-auth'
import { buildApp } from '../src/server/app'
import { openPostgres } from '../src/server/db/client'
import { seedOnce } from '../src/server/db/seed'
import { parseEnv } from '../src/server/env'

const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 60)
const base = process.env.DATABASE_URL
if (!base) {
  console.error('Set DATABASE_URL to a PostgreSQL server (the benchmark creates and drops its own database).')
  process.exit(1)
}

const name = `stablecart_bench_${randomBytes(4).toString('hex')}`
const admin = new pg.Client({ connectionString: base })
await admin.connect()
await admin.query(`create database ${name}`)
const url = new URL(base)
url.pathname = `/${name}`

try {
  const database = await openPostgres(url.toString())
  const env = parseEnv({ LOG_LEVEL: 'silent', PRICE_SOURCE: 'fixed:0.25', ADMIN_PASSWORD: 'bench-password' })
  await ensureFirstAdmin(database.db, env)
  const started = Date.now()
  await database.db.execute(sql`
    insert into orders (id, created_at, email, items, total_cents, wallet_address, status, expires_at, grace_until,
                        paid_at, amount_received_units, trx_received_sun, trx_rate_e8)
    select gen_random_uuid(),
           now() - (i || ' minutes')::interval,
           'buyer' || i || '@example' || (i % 97) || '.com',
           '[{"product":{"id":1,"name":"4G Mobile Proxy Manager Pro","price":49.99},"quantity":1}]'::jsonb,
           4999,
           'T' || substr(md5(i::text), 1, 33),
           (array['pending','paid','completed','cancelled'])[1 + i % 4],
           now(), now(),
           case when i % 4 in (1, 2) then now() - (i || ' minutes')::interval + interval '3 minutes' end,
           case when i % 4 = 1 then 49990000 else 0 end,
           case when i % 4 = 2 then 199960000 else 0 end,
           case when i % 4 = 2 then 25000000 end
    from generate_series(1, ${ORDERS}) as i`)
  await seedOnce(database.db)
  await database.db.execute(sql`
    insert into license_keys (product_id, key, order_id)
    select (select min(id) from products where not is_free) + i % 4, 'BENCH-' || i,
           case when i % 3 = 0 then gen_random_uuid() end
    from generate_series(1, 20000) as i`)
  await database.db.execute(sql`analyze`)
  console.log(`${ORDERS} orders inserted in ${Date.now() - started} ms`)

  const app = await buildApp({ env, database })
  await app.ready()
  const login = await app.inject({
    method: 'POST',
    url: '/rpc/secure_admin_login',
    payload: { p_username: 'admin', p_password: 'bench-password' },
  })
  const cookie = String(login.headers['set-cookie']).split(';')[0] as string
  if (!cookie.startsWith(SESSION_COOKIE)) throw new Error('login failed')
  const result = await database.db.execute(sql`select id, wallet_address from orders offset 5000 limit 1`)
  // node-postgres answers { rows }.
  const [sample] = (result as unknown as { rows: { id: string; wallet_address: string }[] }).rows

  const cases: [string, Record<string, unknown>][] = [
    ['first page, all statuses', {}],
    ['status filter (paid)', { p_status: 'paid' }],
    ['page 200 of all', { p_page: 200 }],
    ['search e-mail substring', { p_search: 'BUYER4242@' }],
    ['search id prefix', { p_search: sample!.id.slice(0, 8) }],
    ['search whole id', { p_search: sample!.id }],
    ['search address substring', { p_search: sample!.wallet_address.slice(3, 15) }],
    ['search + status', { p_search: 'example13.com', p_status: 'pending' }],
    ['search, no match', { p_search: 'nobody-at-all' }],
  ]
  console.log(`\n${'case'.padEnd(28)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}  matches`)
  for (const [label, payload] of cases) {
    const times: number[] = []
    let total = 0
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now()
      const res = await app.inject({
        method: 'POST',
        url: '/rpc/secure_fetch_orders',
        payload,
        headers: { cookie },
      })
      times.push(performance.now() - t0)
      total = (res.json() as { total_count: number }).total_count
    }
    times.sort((a, b) => a - b)
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1)
    console.log(`${label.padEnd(28)} ${at(0.5).padStart(8)} ${at(0.95).padStart(8)}  ${total}`)
  }

  const dashTimes: number[] = []
  let statuses = ''
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now()
    const res = await app.inject({
      method: 'POST',
      url: '/rpc/secure_fetch_sales_dashboard',
      payload: {},
      headers: { cookie },
    })
    dashTimes.push(performance.now() - t0)
    const body = res.json() as {
      orders_by_status: Record<string, number>
      totals: { last_30_days: { paid_orders: number } }
    }
    statuses = `${JSON.stringify(body.orders_by_status)}, paid in 30 days: ${body.totals.last_30_days.paid_orders}`
  }
  dashTimes.sort((a, b) => a - b)
  const dq = (q: number) =>
    dashTimes[Math.min(dashTimes.length - 1, Math.floor(q * dashTimes.length))]!.toFixed(1)
  console.log(`${'sales dashboard'.padEnd(28)} ${dq(0.5).padStart(8)} ${dq(0.95).padStart(8)}  ${statuses}`)
  await app.close()
  await database.close()
} finally {
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.end()
}
