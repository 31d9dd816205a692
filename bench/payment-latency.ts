import { spawn } from 'node:child_process'
import { sql } from 'drizzle-orm'
import { buildApp } from '../src/server/app'
import { createAddressSweep } from '../src/server/chains/address-sweep'
import { createChainFollower } from '../src/server/chains/chain-follower'
import { createTronClient } from '../src/server/chains/tron/tron-client'
import { createTronFinalReads } from '../src/server/chains/tron/tron-final'
import { createProviderPool } from '../src/server/chains/tron/tron-pool'
import { openDatabase } from '../src/server/db/client'
import { seedOnce } from '../src/server/db/seed'
import { parseEnv } from '../src/server/env'
import { addWalletAddresses } from '../src/server/wallets/wallets.repo'
import { testAddresses } from '../tests/support/test-addresses'
import { freePort } from '../tests/support/wait'
import { createDevchain } from '../tools/devchain/devchain'
import { unlimitedCheckouts } from './support/bench-db'

// `npm run bench:payments`: time from a transfer's block being solidified to its order reading paid,
// with 1, 100, 1,000 and 10,000 pending orders and nobody on the payment page, and the explorer
// requests per minute in each; then the catch-up time after 1,200 missed blocks. Default settings:
// EXPLORER_MAX_RPS 5, blocks every 3 s, solidified 19 blocks later, some unrelated traffic in every
// block (as on mainnet, so every block costs a receipt request). Fresh embedded database, or
// DATABASE_URL. BENCH_PENDING=1,100 picks scenarios (empty: none); BENCH_ROUNDS payments per scenario.
// Then two providers where the first fails every few seconds (BENCH_FAILOVER=0 skips it): the
// same latency, and each provider's requests and bytes a day extrapolated to mainnet volume.

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10)
const SCENARIOS = (process.env.BENCH_PENDING ?? '1,100,1000,10000').split(',').filter(Boolean).map(Number)
/** Open orders while sightings are measured (decision 024). */
const SIGHTING_SCENARIOS = (process.env.BENCH_SIGHTINGS ?? '1,100,1000')
  .split(',')
  .filter(Boolean)
  .map(Number)
const BLOCK_MS = 3000
const LAG = 19
const NOISE = 4
/** Mainnet: ~8.8 M transactions a day, ~305 a block, a block every 3 s (28,800 a day). */
const MAINNET_TX_PER_BLOCK = 305
const BLOCKS_PER_DAY = 28_800
/** A small shop on one free key (decision 045). */
const PAYMENTS_PER_DAY = 100
/** Routes whose answers grow with the transactions in a block. */
const PER_TX_ROUTES = ['getblockbylimitnext', 'gettransactioninfobyblocknum']

// The devchain runs in its own process, as TronGrid would: its clock and request counting are not
// held up by this process's database work.
const devchainPort = await freePort()
const devchainProcess = spawn(process.execPath, ['--import', 'tsx', 'tools/devchain/main.ts'], {
  env: {
    ...process.env,
    DEVCHAIN_PORT: String(devchainPort),
    DEVCHAIN_BLOCK_MS: String(BLOCK_MS),
    DEVCHAIN_SOLIDIFY_LAG: String(LAG),
    DEVCHAIN_NOISE: String(NOISE),
  },
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
async function sim<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${chainUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${path}: ${await response.text()}`)
  return (await response.json()) as T
}

const maxPending = Math.max(0, ...SCENARIOS)
const maxOpen = Math.max(0, ...SIGHTING_SCENARIOS)
const dataDir = `.tmp/bench-${Date.now()}`
const env = parseEnv({
  DATA_DIR: dataDir,
  DATABASE_URL: process.env.DATABASE_URL,
  TRON_API_URL: chainUrl,
  PRICE_SOURCE: 'fixed:0.25',
  LOG_LEVEL: 'silent',
  // One free key (decision 045): 70 % of TronGrid's 100,000 a day; BENCH_PER_DAY= (empty) for no limit.
  TRON_API_PER_DAY: process.env.BENCH_PER_DAY ?? '70000',
  ...unlimitedCheckouts,
})
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
await seedOnce(database.db)
for (const table of [
  'payments',
  'address_leases',
  'mail_outbox',
  'license_keys',
  'orders',
  'follower_state',
  'wallet_addresses',
]) {
  await database.db.execute(sql.raw(`delete from ${table}`))
}
const app = await buildApp({ env, database })
await app.listen({ port: 0, host: '127.0.0.1' })
const address = app.server.address()
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
await addWalletAddresses(
  database.db,
  testAddresses(
    maxPending + ROUNDS * SCENARIOS.length + maxOpen + ROUNDS * SIGHTING_SCENARIOS.length + 50,
    `bench ${Date.now()}`,
  ),
)
const mainFollower = createChainFollower({
  db: database.db,
  chain: app.services.chains.require('tron'),
  rules: app.services.rules,
  batchBlocks: env.FOLLOWER_BATCH_BLOCKS,
  intervalMs: env.FOLLOWER_INTERVAL_MS,
  idleEveryMs: env.FOLLOWER_IDLE_EVERY_MS,
  safetyNet: createAddressSweep({
    db: database.db,
    chain: app.services.chains.require('tron'),
    rules: app.services.rules,
  }),
})

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
  return {
    id: body.order_id as string,
    address: body.wallet_address as string,
    secret: body.order_secret as string,
  }
}

async function placeMany(n: number) {
  const placed: { id: string; address: string; secret: string }[] = []
  for (let i = 0; i < n; i += 25) {
    placed.push(...(await Promise.all(Array.from({ length: Math.min(25, n - i) }, () => placeOrder()))))
  }
  return placed
}

async function paidAt(ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map()
  const rows = (await database.db.execute(sql`
    select id from orders where status = 'paid' and id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`)) as unknown as { rows: { id: string }[] }
  const now = Date.now()
  return new Map(rows.rows.map((r) => [r.id, now]))
}

/** Waits until every order sent for is paid; answers when each was first seen paid. */
async function waitUntilPaid(sent: { id: string }[], started: number): Promise<Map<string, number>> {
  const seen = new Map<string, number>()
  while (seen.size < sent.length) {
    for (const [id, at] of await paidAt(sent.map((s) => s.id).filter((id) => !seen.has(id)))) seen.set(id, at)
    if (Date.now() - started > 10 * 60_000) throw new Error('payments were not seen within 10 minutes')
    await new Promise((r) => setTimeout(r, 20))
  }
  return seen
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
}

// The devchain starts with empty blocks; measure only once its solidified blocks carry traffic.
const first = await sim<{ head_block: number }>('/_sim/state')
while ((await sim<{ solid_block: number }>('/_sim/state')).solid_block <= first.head_block)
  await new Promise((r) => setTimeout(r, 500))
mainFollower.start()
console.log(
  `payment latency, EXPLORER_MAX_RPS=${env.EXPLORER_MAX_RPS}, blocks every ${BLOCK_MS / 1000} s, solidified after ${LAG}, ${NOISE} unrelated transfers a block, database ${database.kind}`,
)
const pending: { id: string; address: string; secret: string }[] = []
for (const target of SCENARIOS) {
  if (pending.length < target + ROUNDS) pending.push(...(await placeMany(target + ROUNDS - pending.length)))
  // Let the follower settle into its rhythm, then count requests over the whole scenario.
  await new Promise((r) => setTimeout(r, 2 * BLOCK_MS))
  await sim('/_sim/stats/reset', {})
  const started = Date.now()
  const payers = pending.splice(0, ROUNDS)
  // Buyers pay at random moments over half a minute, not in step with the blocks.
  const sent: { id: string; solidAt: number }[] = []
  await Promise.all(
    payers.map(async (o) => {
      await new Promise((r) => setTimeout(r, Math.random() * 30_000))
      const t = await sim<{ block_number: number; block_timestamp: number }>('/_sim/transfers', {
        to: o.address,
        amount: product.price.toFixed(2),
      })
      // The block is solidified when the 19th block after it is made.
      sent.push({ id: o.id, solidAt: t.block_timestamp + LAG * BLOCK_MS })
    }),
  )
  const seen = await waitUntilPaid(sent, started)
  const minutes = (Date.now() - started) / 60_000
  const stats = await sim<{ requests: number; peakPerSecond: number; byPath: Record<string, number> }>(
    '/_sim/stats',
  )
  const times = sent.map((s) => Math.max(0, (seen.get(s.id) ?? 0) - s.solidAt)).sort((a, b) => a - b)
  console.log(
    `${String(target).padStart(6)} pending  n=${times.length}  median ${(quantile(times, 0.5) / 1000).toFixed(2)} s  worst ${((times[times.length - 1] ?? 0) / 1000).toFixed(2)} s  explorer ${(stats.requests / minutes).toFixed(1)} req/min (${Math.round((stats.requests / minutes) * 1440).toLocaleString('en')}/day)  peak ${stats.peakPerSecond}/s`,
  )
  if (process.env.BENCH_VERBOSE) console.log('   ', JSON.stringify(stats.byPath), `${minutes.toFixed(2)} min`)
}

// Sightings (decision 024): the time from a transfer's block being produced to the payment page's
// status call (the long poll, as the page makes it) answering "confirming", with 1, 100 and 1,000
// open orders, and the head requests the watcher adds per minute. Orders left open by the
// measurements above are closed first, so each scenario has exactly its number open.
if (SIGHTING_SCENARIOS.length > 0 && app.services.sightings) {
  await database.db.execute(sql`update orders set status = 'cancelled' where status = 'pending'`)
  pending.splice(0, pending.length)
  const watcher = app.services.sightings
  watcher.start()
  console.log('sightings: transfer block produced → status call answers "confirming"')
  for (const target of SIGHTING_SCENARIOS) {
    if (pending.length < target + ROUNDS) pending.push(...(await placeMany(target + ROUNDS - pending.length)))
    await new Promise((r) => setTimeout(r, 2 * BLOCK_MS))
    await sim('/_sim/stats/reset', {})
    const started = Date.now()
    const payers = pending.splice(0, ROUNDS)
    const times: number[] = []
    const paidTimes: number[] = []
    await Promise.all(
      payers.map(async (o) => {
        await new Promise((r) => setTimeout(r, Math.random() * 30_000))
        let known = (await call('secure_get_order_status', { p_order_id: o.id, p_order_secret: o.secret }))
          .version as string
        const t = await sim<{ block_timestamp: number }>('/_sim/transfers', {
          to: o.address,
          amount: product.price.toFixed(2),
        })
        for (;;) {
          const answer = await call('secure_get_order_status', {
            p_order_id: o.id,
            p_order_secret: o.secret,
            p_known_version: known,
          })
          if ((answer.sightings as { confirming: unknown } | undefined)?.confirming) break
          if (answer.status === 'paid') throw new Error('paid before it was seen: the watcher missed it')
          known = answer.version as string
          if (Date.now() - started > 5 * 60_000) throw new Error('no sighting within 5 minutes')
        }
        // The devchain produces a block at its timestamp.
        times.push(Math.max(0, Date.now() - t.block_timestamp))
        // And paid, after the block is solidified (19 blocks later), by the follower on the same key.
        const solidAt = t.block_timestamp + LAG * BLOCK_MS
        const seen = await waitUntilPaid([o], started)
        paidTimes.push(Math.max(0, (seen.get(o.id) ?? 0) - solidAt))
      }),
    )
    const minutes = (Date.now() - started) / 60_000
    const stats = await sim<{ byPath: Record<string, number>; bytesByPath: Record<string, number> }>(
      '/_sim/stats',
    )
    const count = (route: string) => stats.byPath[route] ?? 0
    const looks = count('/wallet/getblockbylimitnext') + count('/wallet/getblock')
    const receipts = count('/wallet/gettransactioninfobyblocknum')
    const blocks = (minutes * 60_000) / BLOCK_MS
    // A day at mainnet volume: a look a block whatever happens, a receipt call per payment (here
    // ROUNDS payments in the scenario; mainnet shops: say 100 a day), block bytes scaled from NOISE
    // plus the payments to ~305 transactions a block.
    const lookBytes = stats.bytesByPath['/wallet/getblockbylimitnext'] ?? 0
    const txPerBlock = NOISE + ROUNDS / blocks
    const gbPerDay = ((lookBytes / blocks) * BLOCKS_PER_DAY * (MAINNET_TX_PER_BLOCK / txPerBlock)) / 1e9
    times.sort((a, b) => a - b)
    console.log(
      `${String(target).padStart(6)} open  n=${times.length}  median ${(quantile(times, 0.5) / 1000).toFixed(2)} s  worst ${((times[times.length - 1] ?? 0) / 1000).toFixed(2)} s  added ${((looks + receipts) / minutes).toFixed(1)} req/min: ${(looks / minutes).toFixed(1)} looks/min (${(looks / blocks).toFixed(2)} a block → ${Math.round((looks / blocks) * BLOCKS_PER_DAY).toLocaleString('en')}/day), ${receipts} receipt calls for ${ROUNDS} payments; ≈${gbPerDay.toFixed(1)} GB/day at mainnet volume  mode ${watcher.status().mode}`,
    )
    if (process.env.BENCH_VERBOSE) console.log('   ', JSON.stringify(stats.byPath))
    // Decision 045: everything one key serves with an order open all day, follower and sightings.
    // Block reads scale with blocks; receipts and the safety net's lists with payments (here ROUNDS
    // in a minute or two, a mainnet shop ~100 a day); hash checks ~400 a day (022).
    paidTimes.sort((a, b) => a - b)
    let perBlock = 0
    let perPayment = 0
    for (const [route, n] of Object.entries(stats.byPath)) {
      if (route.includes('gettransactioninfo') || route.startsWith('/v1/')) perPayment += n
      else perBlock += n
    }
    const day = (perBlock / blocks) * BLOCKS_PER_DAY + (perPayment / ROUNDS) * PAYMENTS_PER_DAY + 400
    console.log(
      `        one key: solidified → paid median ${(quantile(paidTimes, 0.5) / 1000).toFixed(2)} s  worst ${((paidTimes[paidTimes.length - 1] ?? 0) / 1000).toFixed(2)} s; block reads ${(perBlock / blocks).toFixed(2)} a block, ${(perPayment / ROUNDS).toFixed(1)} requests a payment → ${Math.round(day).toLocaleString('en')}/day with an order open all day, ${PAYMENTS_PER_DAY} payments and 400 hash checks (budget ${env.TRON_API_PER_DAY ?? 'none'})`,
    )
  }
  await watcher.stop()
}

// An idle shop (decision 045): no open order, no address cooling down. The follower reads every
// block since its last look every FOLLOWER_IDLE_EVERY_MS; the watcher sends nothing.
const IDLE_MINUTES = Number(process.env.BENCH_IDLE_MINUTES ?? 3)
if (IDLE_MINUTES > 0) {
  await database.db.execute(sql`update orders set status = 'cancelled' where status = 'pending'`)
  await database.db.execute(sql`update wallet_addresses set cooldown_until = null`)
  await database.db.execute(sql`update address_leases set cooldown_until = ended_at`)
  // The follower notices at its next pass; count from then.
  await new Promise((r) => setTimeout(r, 2 * BLOCK_MS))
  await sim('/_sim/stats/reset', {})
  const started = Date.now()
  await new Promise((r) => setTimeout(r, IDLE_MINUTES * 60_000))
  const stats = await sim<{ byPath: Record<string, number> }>('/_sim/stats')
  const blocks = (Date.now() - started) / BLOCK_MS
  const all = Object.values(stats.byPath).reduce((a, b) => a + b, 0)
  console.log(
    `idle shop (${IDLE_MINUTES} min, follower every ${env.FOLLOWER_IDLE_EVERY_MS / 1000} s): ${all} requests, ${(all / blocks).toFixed(3)} a block → ${Math.round((all / blocks) * BLOCKS_PER_DAY).toLocaleString('en')}/day`,
  )
  if (process.env.BENCH_VERBOSE) console.log('   ', JSON.stringify(stats.byPath))
}
await mainFollower.stop()

// The first payment after a start (decision 045): a new follower takes over from the checkpoint,
// a payment lands in the next block; solidified → paid, BENCH_RESTARTS times.
const RESTARTS = Number(process.env.BENCH_RESTARTS ?? 3)
if (RESTARTS > 0) {
  const firsts: number[] = []
  for (let i = 0; i < RESTARTS; i++) {
    const [o] = await placeMany(1)
    if (!o) throw new Error('no order')
    const follower = createChainFollower({
      db: database.db,
      chain: app.services.chains.require('tron'),
      rules: app.services.rules,
      batchBlocks: env.FOLLOWER_BATCH_BLOCKS,
      intervalMs: env.FOLLOWER_INTERVAL_MS,
      idleEveryMs: env.FOLLOWER_IDLE_EVERY_MS,
    })
    follower.start()
    const started = Date.now()
    const t = await sim<{ block_timestamp: number }>('/_sim/transfers', {
      to: o.address,
      amount: product.price.toFixed(2),
    })
    const seen = await waitUntilPaid([o], started)
    firsts.push(Math.max(0, (seen.get(o.id) ?? 0) - (t.block_timestamp + LAG * BLOCK_MS)))
    await follower.stop()
  }
  console.log(
    `first payment after a start: solidified → paid ${firsts.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')}`,
  )
}

/**
 * A provider's day at mainnet volume from what it served here: requests scale with blocks (the
 * devchain makes one every 3 s, as mainnet does); block and receipt bytes also with the
 * transactions in a block (mainnet ~305, here NOISE plus the payments).
 */
function perDay(
  stats: { byPath: Record<string, number>; bytesByPath: Record<string, number> },
  blocks: number,
  txPerBlock: number,
) {
  let requests = 0
  let bytes = 0
  for (const [route, n] of Object.entries(stats.byPath)) {
    const scale = BLOCKS_PER_DAY / blocks
    requests += n * scale
    const grows = PER_TX_ROUTES.some((r) => route.includes(r))
    bytes += (stats.bytesByPath[route] ?? 0) * scale * (grows ? MAINNET_TX_PER_BLOCK / txPerBlock : 1)
  }
  return { requests: Math.round(requests), bytes }
}

if (process.env.BENCH_FAILOVER !== '0') {
  // Two faces of one chain; the first fails for 2 s every 5 s (HTTP 500, a 429 "suspended for 1 s",
  // no answer within the timeout, the listener gone), the second stays healthy.
  const chain = await createDevchain({ blockIntervalMs: BLOCK_MS, solidifyLag: LAG, noisePerBlock: NOISE })
  const flaky = await chain.addFace()
  // Blocks on the wall clock from the start (mining ahead would stop the clock until it caught up).
  const firstHead = chain.heights().head
  while (chain.heights().solid <= firstHead) await new Promise((r) => setTimeout(r, 500))
  await database.db.execute(sql`delete from follower_state`)
  const pool = createProviderPool({
    providers: [
      { name: 'first', url: flaky.url, keys: [], rps: env.EXPLORER_MAX_RPS, perDay: null },
      { name: 'second', url: chain.url, keys: [], rps: env.EXPLORER_MAX_RPS, perDay: null },
    ],
    usdtContract: env.USDT_CONTRACT,
    timeoutMs: 2000,
  })
  const follower = createChainFollower({
    db: database.db,
    chain: createTronFinalReads(pool),
    rules: app.services.rules,
    batchBlocks: env.FOLLOWER_BATCH_BLOCKS,
    intervalMs: env.FOLLOWER_INTERVAL_MS,
  })
  follower.start()
  const faults = ['http500', 'http429', 'timeout', 'down'] as const
  let failing = true
  const failures = (async () => {
    for (let i = 0; failing; i++) {
      await new Promise((r) => setTimeout(r, 3000))
      const fault = faults[i % faults.length]
      if (fault === 'down') await flaky.stop()
      else flaky.setFault(fault ?? 'http500')
      await new Promise((r) => setTimeout(r, 2000))
      flaky.setFault('none')
      await flaky.start()
    }
  })()
  await new Promise((r) => setTimeout(r, 2 * BLOCK_MS))
  flaky.resetStats()
  chain.resetStats()
  const startBlock = chain.heights().head
  const started = Date.now()
  const payers = await placeMany(Math.max(ROUNDS, 20))
  const sent: { id: string; solidAt: number }[] = []
  await Promise.all(
    payers.map(async (o) => {
      await new Promise((r) => setTimeout(r, Math.random() * 60_000))
      const t = chain.transfer({ to: o.address, amount: product.price.toFixed(2) })
      sent.push({ id: o.id, solidAt: t.block_timestamp + LAG * BLOCK_MS })
    }),
  )
  const seen = await waitUntilPaid(sent, started)
  failing = false
  await failures
  await follower.stop()
  const blocks = chain.heights().head - startBlock
  const txPerBlock = NOISE + sent.length / blocks
  const times = sent.map((s) => Math.max(0, (seen.get(s.id) ?? 0) - s.solidAt)).sort((a, b) => a - b)
  console.log(
    `two providers, the first failing 2 s in every 5 s: n=${times.length}  median ${(quantile(times, 0.5) / 1000).toFixed(2)} s  worst ${((times[times.length - 1] ?? 0) / 1000).toFixed(2)} s  over ${blocks} blocks`,
  )
  for (const [name, stats] of [
    ['first', flaky.stats()],
    ['second', chain.stats()],
  ] as const) {
    const day = perDay(stats, blocks, txPerBlock)
    console.log(
      `   ${name.padEnd(6)} ${stats.requests} requests (${stats.faulted} faulted) → at mainnet volume ≈ ${day.requests.toLocaleString('en')} requests/day, ${(day.bytes / 1e9).toFixed(1)} GB/day`,
    )
    if (process.env.BENCH_VERBOSE) console.log('   ', JSON.stringify(stats.byPath))
  }
  const total = perDay(
    {
      byPath: Object.fromEntries(
        [...new Set([...Object.keys(flaky.stats().byPath), ...Object.keys(chain.stats().byPath)])].map(
          (k) => [k, (flaky.stats().byPath[k] ?? 0) + (chain.stats().byPath[k] ?? 0)],
        ),
      ),
      bytesByPath: {},
    },
    blocks,
    txPerBlock,
  )
  console.log(
    `   both   ≈ ${total.requests.toLocaleString('en')} requests/day in all (budget: 70,000 on one key)`,
  )
  await chain.close()
}

// Catch-up: 1,200 solidified blocks the follower has not read (the shop was down), at the budget.
if (process.env.BENCH_CATCHUP === '0') {
  await app.close()
  await database.close()
  devchainProcess.kill('SIGTERM')
  process.exit(0)
}
const catchup = await createDevchain({
  autoMine: false,
  blockIntervalMs: BLOCK_MS,
  solidifyLag: LAG,
  noisePerBlock: NOISE,
})
catchup.mine(LAG + 1)
await database.db.execute(sql`delete from follower_state`)
const client = createTronClient({
  baseUrl: catchup.url,
  usdtContract: env.USDT_CONTRACT,
  maxRps: env.EXPLORER_MAX_RPS,
})
const follower = createChainFollower({
  db: database.db,
  chain: createTronFinalReads(client),
  rules: app.services.rules,
  batchBlocks: env.FOLLOWER_BATCH_BLOCKS,
})
await follower.runOnce()
const late = pending.slice(0, 20)
for (const [i, o] of late.entries()) {
  catchup.transfer({ to: o.address, amount: product.price.toFixed(2) })
  catchup.mine(i === late.length - 1 ? 1200 - 60 * (late.length - 1) : 60)
}
catchup.mine(LAG)
catchup.resetStats()
const from = Date.now()
let read = 0
for (;;) {
  const result = await follower.runOnce()
  read += result.blocks
  if (result.error) await new Promise((r) => setTimeout(r, 1000))
  else if (!result.more) break
}
const seconds = (Date.now() - from) / 1000
const paid = await paidAt(late.map((o) => o.id))
const stats = catchup.stats()
console.log(
  `catch-up: ${read} blocks in ${seconds.toFixed(1)} s (${(read / seconds).toFixed(1)} blocks/s), ${stats.requests} explorer requests, peak ${stats.peakPerSecond}/s, ${paid.size}/${late.length} orders paid`,
)

await catchup.close()
await app.close()
await database.close()
devchainProcess.kill('SIGTERM')
process.exit(0)
