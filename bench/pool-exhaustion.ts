// Pool exhaustion: 100 attacking clients, each in its own /24, place orders over real HTTP at the
// highest rate the shop allows for one hour of shop time, against a pool of 200 addresses, while a
// real buyer from a network of their own checks out every 5 shop minutes. Prints, per shop
// quarter-hour and at the end, how many addresses the attackers held (leased or cooling) and
// whether each real buyer got one; then the same attack for 10 shop minutes without the pool guard,
// for comparison (docs/decisions/021-pool-guard.md).
//   npm run bench:pool                       (PGlite)
//   DATABASE_URL=postgres://... npm run bench:pool   (a scratch database on that server)
//   BENCH_SHOP_MINUTE_MS (default 3000), BENCH_ATTACKERS (100), BENCH_POOL (200),
//   BENCH_SCENARIOS (together,in-turn,without)
//
// Shop time runs faster than the clock: one shop minute is BENCH_SHOP_MINUTE_MS of real time, and
// every duration the shop is configured with is scaled by that factor (the payment window of 30
// minutes, the grace and the cool-down of 60, the creation limit of 10 per client per minute). An
// attacking client sends a creation every tenth of a shop minute (the creation limit, exactly),
// with no cookie and a fresh e-mail each time (so neither the browser nor the e-mail limit binds);
// when its client already has the most orders in their payment window, it cancels its oldest, so
// the next creation is admitted: cancelled orders' addresses cool down, still held. Nothing expires
// within the hour (the window plus grace is 90 minutes), so no chain follower runs.

import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { buildApp } from '../src/server/app'
import { type Database, openDatabase } from '../src/server/db/client'
import { seedOnce } from '../src/server/db/seed'
import { parseEnv } from '../src/server/env'
import { addWalletAddresses } from '../src/server/wallets/wallets.repo'
import { testAddresses } from '../tests/support/test-addresses'

const SHOP_MINUTE_MS = Number(process.env.BENCH_SHOP_MINUTE_MS ?? 3000)
const ATTACKERS = Number(process.env.BENCH_ATTACKERS ?? 100)
const POOL = Number(process.env.BENCH_POOL ?? 200)
const CREATIONS_PER_SHOP_MINUTE = 10
const BUYER_EVERY_SHOP_MINUTES = 5

interface Scenario {
  name: string
  guard: boolean
  shopMinutes: number
  /** Shop minute at which attacking network n sends its first creation. */
  startOf(n: number): number
}

interface Outcome {
  peakHeld: number
  endHeld: number
  buyers: { minute: number; ok: boolean; error?: string }[]
  sent: number
  planned: number
  placed: number
  cancelled: number
  refusals: Map<string, number>
  answersPerSecond: number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function scratchDatabase(): Promise<{ url?: string; drop(): Promise<void> }> {
  const base = process.env.DATABASE_URL
  if (!base) return { drop: async () => {} }
  const name = `stablecart_bench_pool_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: base })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(base)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: base })
      await client.connect()
      await client.query(`drop database if exists ${name} with (force)`)
      await client.end()
    },
  }
}

async function run(scenario: Scenario): Promise<Outcome> {
  const minutes = (shopMinutes: number) => String((shopMinutes * SHOP_MINUTE_MS) / 60_000)
  const dataDir = mkdtempSync(join(tmpdir(), 'stablecart-bench-pool-'))
  const scratch = await scratchDatabase()
  const env = parseEnv({
    DATA_DIR: dataDir,
    DATABASE_URL: scratch.url ?? '',
    LOG_LEVEL: 'silent',
    PRICE_SOURCE: 'fixed:0.25',
    TRUST_PROXY: 'true',
    PAYMENT_WINDOW_MINUTES: minutes(30),
    LATE_PAYMENT_GRACE_MINUTES: minutes(60),
    ADDRESS_COOLDOWN_MINUTES: minutes(60),
    CHECKOUT_CREATIONS_PER_MINUTE: String(Math.round((CREATIONS_PER_SHOP_MINUTE * 60_000) / SHOP_MINUTE_MS)),
    ...(scenario.guard ? {} : { CHECKOUT_HELD_PER_NETWORK: '100000', CHECKOUT_RESERVE_PERCENT: '0' }),
  })
  const database: Database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
  const app = await buildApp({ env, database })
  try {
    await seedOnce(database.db)
    await database.db.execute(sql`delete from wallet_addresses`)
    await addWalletAddresses(database.db, testAddresses(POOL, `bench pool ${Date.now()}`))
    await app.listen({ port: 0, host: '127.0.0.1' })
    const address = app.server.address()
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    const call = async (name: string, ip: string, payload: unknown) => {
      const res = await fetch(`${base}/rpc/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify(payload),
      })
      return (await res.json()) as Record<string, unknown>
    }
    const products = (await call('fetch_products', '127.0.0.1', {})).products as {
      id: number
      price: number
      is_free: boolean
    }[]
    const product = products.find((p) => !p.is_free && p.price > 0) as { id: number; price: number }
    const orderPayload = (email: string) => ({
      p_email: email,
      p_items: [{ product: { id: product.id }, quantity: 1 }],
      p_total: product.price,
    })

    // Addresses whose latest lease is an attacker's order and which are leased or still cooling.
    const attackersHold = async () => {
      const result = (await database.db.execute(sql`
        select count(*)::int as n from wallet_addresses w
        join lateral (select order_id from address_leases l where l.address = w.address
          order by l.started_at desc, l.id desc limit 1) last on true
        join orders o on o.id = last.order_id
        where (w.leased_order_id is not null or w.cooldown_until > now()) and o.email like 'attacker-%'`)) as unknown as {
        rows: { n: number }[]
      }
      return result.rows[0]?.n ?? 0
    }

    const outcome: Outcome = {
      peakHeld: 0,
      endHeld: 0,
      buyers: [],
      sent: 0,
      planned: 0,
      placed: 0,
      cancelled: 0,
      refusals: new Map(),
      answersPerSecond: 0,
    }
    const start = performance.now()
    const end = start + scenario.shopMinutes * SHOP_MINUTE_MS
    outcome.planned = Array.from({ length: ATTACKERS }, (_, n) =>
      Math.floor((scenario.shopMinutes - scenario.startOf(n)) * CREATIONS_PER_SHOP_MINUTE),
    ).reduce((a, b) => a + b, 0)
    const shopMinute = () => (performance.now() - start) / SHOP_MINUTE_MS
    let sequence = 0
    const tick = SHOP_MINUTE_MS / CREATIONS_PER_SHOP_MINUTE

    const attacker = async (n: number) => {
      const ip = `10.${n >> 8}.${n & 255}.1`
      const pending: { id: string; secret: string }[] = []
      // Spread the clients' first creations over one tick, as independent clients would be. A client
      // waits for each answer; when the shop answers late it sends the next at once, catching up,
      // until the hour is over.
      let next = start + scenario.startOf(n) * SHOP_MINUTE_MS + (tick * n) / ATTACKERS
      while (next < end && performance.now() < end) {
        const wait = next - performance.now()
        if (wait > 0) await sleep(wait)
        next += tick
        outcome.sent++
        const answer = await call(
          'secure_create_order',
          ip,
          orderPayload(`attacker-${sequence++}@example.net`),
        )
        if (answer.success === true) {
          outcome.placed++
          pending.push({ id: answer.order_id as string, secret: answer.order_secret as string })
          continue
        }
        const reason = String(answer.error)
        outcome.refusals.set(reason, (outcome.refusals.get(reason) ?? 0) + 1)
        if (reason.startsWith('You already have orders awaiting payment')) {
          const oldest = pending.shift()
          if (!oldest) continue
          const cancelled = await call('secure_cancel_order', ip, {
            p_order_id: oldest.id,
            p_order_secret: oldest.secret,
          })
          if (cancelled.success === true) outcome.cancelled++
        }
      }
    }

    const buyers = async () => {
      for (let k = 0; ; k++) {
        const at = start + (k * BUYER_EVERY_SHOP_MINUTES + 1) * SHOP_MINUTE_MS
        if (at >= end) return
        await sleep(at - performance.now())
        const minute = Math.round(shopMinute())
        const answer = await call(
          'secure_create_order',
          `172.16.${k}.20`,
          orderPayload(`buyer-${k}@example.com`),
        )
        outcome.buyers.push({
          minute,
          ok: answer.success === true && typeof answer.wallet_address === 'string',
          ...(answer.success === true ? {} : { error: String(answer.error) }),
        })
      }
    }

    const sampler = async () => {
      let reported = 0
      while (performance.now() < end) {
        await sleep(SHOP_MINUTE_MS / 4)
        const held = await attackersHold()
        outcome.peakHeld = Math.max(outcome.peakHeld, held)
        const minute = Math.floor(shopMinute())
        if (minute >= reported + 15 || performance.now() >= end) {
          reported = minute - (minute % 15)
          console.log(`  ${scenario.name}: shop minute ${minute}: attackers hold ${held} of ${POOL}`)
        }
      }
    }

    await Promise.all([...Array.from({ length: ATTACKERS }, (_, n) => attacker(n)), buyers(), sampler()])
    outcome.endHeld = await attackersHold()
    outcome.peakHeld = Math.max(outcome.peakHeld, outcome.endHeld)
    outcome.answersPerSecond = outcome.sent / ((performance.now() - start) / 1000)
    return outcome
  } finally {
    await app.close()
    await database.close()
    rmSync(dataDir, { recursive: true, force: true })
    await scratch.drop()
  }
}

function report(scenario: Scenario, o: Outcome) {
  const got = o.buyers.filter((b) => b.ok).length
  console.log(
    [
      `${scenario.name} (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${ATTACKERS} attacking /24s, pool ${POOL}, ${scenario.shopMinutes} shop minutes):`,
      `  creations sent ${o.sent} of ${o.planned} allowed, placed ${o.placed}, cancelled by the attackers ${o.cancelled}` +
        ` (the shop answered ${o.answersPerSecond.toFixed(0)}/s; a client whose answers come late sends fewer)`,
      `  refusals: ${[...o.refusals].map(([reason, n]) => `${n} × "${reason}"`).join('; ') || 'none'}`,
      `  addresses the attackers held: peak ${o.peakHeld}, end ${o.endHeld} (of ${POOL})`,
      `  real buyers who got an address: ${got} of ${o.buyers.length}` +
        (got < o.buyers.length
          ? ` (refused at shop minutes ${o.buyers
              .filter((b) => !b.ok)
              .map((b) => `${b.minute}: ${b.error}`)
              .join('; ')})`
          : ''),
    ].join('\n'),
  )
}

console.log(
  `One shop minute = ${SHOP_MINUTE_MS} ms of real time; the shop's window, grace, cool-down and creation limit are scaled to match.`,
)
// Together: every client from the first minute, each network gets its first address at once. In
// turn: the order that leaves the least (decision 021): each of the first networks starts two shop
// minutes after the one before, so it fills its share before the next begins, and the rest start
// together after them, when only the reserve is left.
const scenarios: Record<string, Scenario> = {
  together: { name: 'together, with the pool guard', guard: true, shopMinutes: 60, startOf: () => 0 },
  'in-turn': {
    name: 'in turn, with the pool guard',
    guard: true,
    shopMinutes: 60,
    startOf: (n) => 2 * Math.min(n, 12),
  },
  without: { name: 'together, without the pool guard', guard: false, shopMinutes: 10, startOf: () => 0 },
}
for (const name of (process.env.BENCH_SCENARIOS ?? 'together,in-turn,without').split(',')) {
  const scenario = scenarios[name]
  if (!scenario) throw new Error(`unknown scenario ${name}: ${Object.keys(scenarios).join(', ')}`)
  report(scenario, await run(scenario))
}
