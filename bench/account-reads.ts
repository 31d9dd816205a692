import { sql } from 'drizzle-orm'
import { buildApp } from '../src/server/app'
import {
  createAccountReads,
  DEFAULT_ACCOUNT_READ_PACE,
  openReadEveryMs,
} from '../src/server/chains/account-reads'
import { createChainFollower } from '../src/server/chains/chain-follower'
import { LOOK_COST } from '../src/server/chains/sighting-pace'
import { openDatabase } from '../src/server/db/client'
import { seedOnce } from '../src/server/db/seed'
import { parseEnv } from '../src/server/env'
import { addWalletAddresses } from '../src/server/wallets/wallets.repo'
import { testAddresses } from '../tests/support/test-addresses'
import { createDevchain } from '../tools/devchain/devchain'
import { unlimitedCheckouts } from './support/bench-db'

// `npm run bench:reads` (decision 054): the account reads' share of one free key, and how long a
// payment a contract routes to an open order's address (naming it nowhere in its call data, so the
// follower's cheaper read skips it) takes from its block to the ledger.
// 1. Requests a day by part with 0, 1, 10 and 100 open orders (open all day) and 200 pool
//    addresses: the requests one read costs and the start-up reads of 200 addresses are measured on
//    the devchain; following, sightings and hash checks are decision 045's measured rates.
// 2. Block → ledger at 1 and 10 open orders: the devchain, the follower and the reads run SCALE
//    (BENCH_SCALE, 10) times faster than mainnet (blocks, solidification, the pace and the tick alike); each figure is
//    printed as measured and times SCALE (mainnet). BENCH_ROUNDS payments per case (default 10;
//    0 skips this part).

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10)
/** How many times faster than mainnet the devchain, the follower and the reads run (BENCH_SCALE). */
const SCALE = Number(process.env.BENCH_SCALE ?? 10)
const BLOCK_MS = 3000 / SCALE
const LAG = 19
const POOL = 200
const DAY_BLOCKS = 28_800
const KEY_PER_DAY = 70_000
const ROUTER = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL'

const chain = await createDevchain({
  blockIntervalMs: BLOCK_MS,
  solidifyLag: LAG,
  noisePerBlock: 4,
  autoMine: true,
})
const env = parseEnv({
  DATA_DIR: `.tmp/bench-reads-${Date.now()}`,
  DATABASE_URL: process.env.DATABASE_URL,
  TRON_API_URL: chain.url,
  PRICE_SOURCE: 'fixed:0.25',
  LOG_LEVEL: 'silent',
  EXPLORER_MAX_RPS: '100',
  ...unlimitedCheckouts,
})
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
await seedOnce(database.db)
for (const table of [
  'payments',
  'address_leases',
  'account_reads',
  'orders',
  'follower_state',
  'wallet_addresses',
]) {
  await database.db.execute(sql.raw(`delete from ${table}`))
}
const app = await buildApp({ env, database })
await addWalletAddresses(database.db, testAddresses(POOL, `bench-reads ${Date.now()}`))
const tron = app.services.chains.require('tron')
const rules = app.services.rules

async function rpc(name: string, payload: unknown) {
  const res = await app.inject({ method: 'POST', url: `/rpc/${name}`, payload: payload as object })
  return res.json() as Record<string, unknown>
}
const { products } = (await rpc('fetch_products', {})) as {
  products: { id: number; price: number; is_free: boolean }[]
}
const product = products.find((p) => !p.is_free && p.price > 0) as { id: number; price: number }
async function placeOrder() {
  const body = await rpc('secure_create_order', {
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

// The follower starts at the solidified head; it follows on its own clock, with the reads as its net.
const pace = {
  openEveryMs: DEFAULT_ACCOUNT_READ_PACE.openEveryMs / SCALE,
  openPerDay: DEFAULT_ACCOUNT_READ_PACE.openPerDay * SCALE,
  idleEveryMs: DEFAULT_ACCOUNT_READ_PACE.idleEveryMs,
}
const follower = createChainFollower({
  db: database.db,
  chain: tron,
  rules,
  batchBlocks: 20,
  intervalMs: 20,
  blockIntervalMs: BLOCK_MS,
  idleEveryMs: 0,
  safetyNet: createAccountReads({ db: database.db, chain: tron, rules, pace }),
  safetyNetEveryMs: 5000 / SCALE,
})
while (chain.heights().solid < 2) await new Promise((r) => setTimeout(r, BLOCK_MS))
await follower.runOnce()

// 1. What one read costs: the start-up reads of the whole pool, counted by the devchain.
const startup = createAccountReads({ db: database.db, chain: tron, rules })
// (The follower's first pass above may have read some already: those are not counted.)
await database.db.execute(sql`delete from account_reads`)
chain.resetStats()
for (let pass = 0; pass < POOL / 10 + 1; pass++) await startup.run()
const listRequests = chain.stats().byPath
const readsDone = (await database.db.execute(
  sql`select count(*)::int as n from account_reads`,
)) as unknown as {
  rows: { n: number }[]
}
const perRead =
  ((listRequests['/v1/accounts/:address/transactions/trc20'] ?? 0) +
    (listRequests['/v1/accounts/:address/transactions'] ?? 0)) /
  Number(readsDone.rows[0]?.n ?? 1)

// Decision 045's measured rates: following 1.17 block reads a block with an order open plus the
// solidified head and a receipt call a contract payment; ~2,400 a day idle; a sighting look costs
// LOOK_COST a block while an order is open; ~400 hash checks a day.
const followerDay = (open: number) => (open > 0 ? Math.round(DAY_BLOCKS * 1.17 + 290 + 100) : 2_400)
const sightingsDay = (open: number) => (open > 0 ? Math.round(DAY_BLOCKS * LOOK_COST) : 0)
const openReadsDay = (open: number) =>
  open === 0
    ? 0
    : Math.round((open * perRead * 86_400_000) / openReadEveryMs(open, DEFAULT_ACCOUNT_READ_PACE))
const dailyReadsDay = Math.round(POOL * perRead)
const hashDay = (open: number) => (open > 0 ? 400 : 0)

console.log(
  `\nOne read: ${perRead.toFixed(2)} requests (measured over the start-up reads of ${readsDone.rows[0]?.n} of ${POOL} addresses)`,
)
console.log(
  '\nRequests a day on one key (70,000), orders open all day, 200 pool addresses; the total is with sightings at every block',
)
console.log(
  'open | follower | sightings | open-order reads (pace) | daily reads | hash checks | total | sightings',
)
for (const open of [0, 1, 10, 100]) {
  const [follow, looks, openReads, daily, hashes] = [
    followerDay(open),
    sightingsDay(open),
    openReadsDay(open),
    dailyReadsDay,
    hashDay(open),
  ]
  const total = follow + looks + openReads + daily + hashes
  const every = open === 0 ? '—' : `${openReadEveryMs(open, DEFAULT_ACCOUNT_READ_PACE) / 1000} s`
  // Sightings give way (decision 024): what the others leave them, as a look every so many seconds.
  const left = KEY_PER_DAY - (total - looks)
  const sightings =
    open === 0
      ? 'off'
      : left >= looks
        ? 'a look every block'
        : `a look every ${((86_400 * LOOK_COST) / left).toFixed(1)} s`
  const share = (n: number) => `${n.toLocaleString('en')} (${((100 * n) / KEY_PER_DAY).toFixed(1)} %)`
  console.log(
    `${open} | ${share(follow)} | ${share(looks)} | ${share(openReads)} (${every}) | ${share(daily)} | ${share(hashes)} | ${total.toLocaleString('en')} | ${sightings}`,
  )
}

// 2. Block → ledger for a contract-routed payment with 1 and 10 orders open.
follower.start()
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2
    ? (s[(s.length - 1) / 2] as number)
    : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2
}
console.log(
  `\nBlock → ledger (from the send; the block follows within one block time), a USDT payout by a contract naming nobody (devchain ${SCALE}× mainnet's pace; this machine's own delays are multiplied too)`,
)
for (const open of ROUNDS > 0 ? [1, 10] : []) {
  const times: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const orders = await Promise.all(Array.from({ length: open }, () => placeOrder()))
    // A random moment within the pace, as a buyer's payment is.
    await new Promise((r) => setTimeout(r, Math.random() * openReadEveryMs(open, pace)))
    const target = orders[Math.floor(Math.random() * open)] as { id: string; address: string }
    // The transfer lands in the next block (within one block time of this moment).
    const sentAt = Date.now()
    const sent = chain.transfer({
      to: target.address,
      amount: product.price.toFixed(2),
      via_contract: ROUTER,
      unnamed: true,
    })
    for (;;) {
      const rows = (await database.db.execute(
        sql`select 1 from payments where tx_id = ${sent.transaction_id}`,
      )) as unknown as { rows: unknown[] }
      if (rows.rows.length > 0) break
      await new Promise((r) => setTimeout(r, 10))
    }
    times.push(Date.now() - sentAt)
    // The others end (cancelled by their buyers), so the next round starts with `open` fresh orders.
    for (const o of orders) await rpc('secure_cancel_order', { p_order_id: o.id, p_order_secret: o.secret })
  }
  const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s (mainnet ${((ms * SCALE) / 1000).toFixed(0)} s)`
  console.log(
    `${open} open: median ${fmt(median(times))}, worst ${fmt(Math.max(...times))}; the pace reads each address every ${openReadEveryMs(open, DEFAULT_ACCOUNT_READ_PACE) / 1000} s on mainnet`,
  )
}

await follower.stop()
await app.close()
await database.close()
await chain.close()
