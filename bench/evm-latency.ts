// `npm run bench:evm`: on a real Anvil node making a block every 2 s (BNB Smart Chain's chain id 56,
// an 18-decimal USDT), the time from a payment's block being produced to the payment page's status
// call (the long poll, as the page makes it) answering "confirming", and from the confirmation depth
// being reached (the block `depth - 1` after it produced) to the order reading paid; with 1 and
// 1,000 open orders on the chain. Block times are when a watcher polling the node every 20 ms first
// saw each block (so they are late by up to 20 ms, which makes the figures slightly better than
// they are). The shop runs in this process on a fresh embedded database (or DATABASE_URL), its
// follower and sighting watcher as the server starts them, with the chain's default depth (15).
//   BENCH_OPEN=1,1000 (scenarios), BENCH_ROUNDS (20 payments each), ANVIL_PORTS_FROM
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { type Address, getAddress } from 'viem'
import { buildApp } from '../src/server/app'
import { createChainFollower } from '../src/server/chains/chain-follower'
import { openDatabase } from '../src/server/db/client'
import { seedOnce } from '../src/server/db/seed'
import { parseEnv } from '../src/server/env'
import { addWalletAddresses } from '../src/server/wallets/wallets.repo'
import { spawnAnvil } from '../tests/support/evm/anvil'
import { accounts, deployStablecoin, mint, transfer, USDT_18 } from '../tests/support/evm/tokens'
import { unlimitedCheckouts } from './support/bench-db'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20)
const SCENARIOS = (process.env.BENCH_OPEN ?? '1,1000').split(',').filter(Boolean).map(Number)
const BLOCK_S = 2

const anvil = await spawnAnvil({ chainId: 56, blockTime: BLOCK_S })
const [deployer, buyer] = await accounts(anvil)
const usdt = await deployStablecoin(anvil, USDT_18)
await mint(anvil, usdt, deployer, buyer, 10n ** 30n)

// When each block was first seen.
const seenAt = new Map<number, number>()
let watching = true
const blockWatch = (async () => {
  while (watching) {
    const n = Number(await anvil.client.getBlockNumber({ cacheTime: 0 }))
    if (!seenAt.has(n)) seenAt.set(n, Date.now())
    await new Promise((r) => setTimeout(r, 20))
  }
})()
async function whenSeen(block: number): Promise<number> {
  for (;;) {
    const at = seenAt.get(block)
    if (at !== undefined) return at
    await new Promise((r) => setTimeout(r, 10))
  }
}

const dataDir = `.tmp/bench-evm-${Date.now()}`
const env = parseEnv({
  DATA_DIR: dataDir,
  DATABASE_URL: process.env.DATABASE_URL,
  TRON_API_URL: 'http://127.0.0.1:9',
  PRICE_SOURCE: 'fixed:0.25',
  LOG_LEVEL: 'silent',
  ...unlimitedCheckouts,
  EVM_BSC_ENABLED: 'true',
  EVM_BSC_PROVIDER_1_URL: anvil.url,
  EVM_BSC_PROVIDER_1_RPS: '50',
  EVM_BSC_POLL_MS: String(BLOCK_S * 1000),
  EVM_BSC_TOKENS: JSON.stringify([{ symbol: 'USDT', contract: usdt, decimals: 18 }]),
})
const bsc = env.EVM_CHAINS.find((c) => c.spec.key === 'bsc')
if (!bsc) throw new Error('no BNB Smart Chain settings')
const DEPTH = bsc.confirmations
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
await seedOnce(database.db)
for (const table of [
  'payments',
  'address_leases',
  'mail_outbox',
  'license_keys',
  'orders',
  'follower_state',
]) {
  await database.db.execute(sql.raw(`delete from ${table}`))
}
await database.db.execute(sql`delete from wallet_addresses`)
const maxOpen = Math.max(0, ...SCENARIOS)
await addWalletAddresses(
  database.db,
  Array.from({ length: maxOpen + ROUNDS * (SCENARIOS.length + 1) + 50 }, () => ({
    address: getAddress(`0x${randomBytes(20).toString('hex')}`),
    family: 'evm' as const,
  })),
)
const app = await buildApp({ env, database })
await app.listen({ port: 0, host: '127.0.0.1' })
const listening = app.server.address()
const base = `http://127.0.0.1:${typeof listening === 'object' && listening ? listening.port : 0}`
const chain = app.services.chains.require('bsc')
// As the server starts them (src/server/server.ts).
const follower = createChainFollower({
  db: database.db,
  chain,
  rules: app.services.rules,
  batchBlocks: env.FOLLOWER_BATCH_BLOCKS,
  intervalMs: env.FOLLOWER_INTERVAL_MS,
  blockIntervalMs: chain.followEveryMs ?? chain.blockIntervalMs,
  onPaid: (id) => app.services.orderPaid.emit(id),
  onCommitted: () => app.services.orderWatch.notify('*'),
})
follower.start()
for (const w of app.services.sightingWatchers) w.start()

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
interface Order {
  id: string
  secret: string
  address: Address
  amount: bigint
}

async function placeOrder(): Promise<Order> {
  const body = await call('secure_create_order', {
    p_email: 'bench@example.com',
    p_items: [{ product: { id: product.id }, quantity: 1 }],
    p_total: product.price,
    p_chain: 'bsc',
    p_token: 'USDT',
  })
  if (!body.success) throw new Error(JSON.stringify(body))
  return {
    id: body.order_id as string,
    secret: body.order_secret as string,
    address: body.wallet_address as Address,
    amount: BigInt(body.amount_units as string),
  }
}

async function placeMany(n: number) {
  const placed: Order[] = []
  for (let i = 0; i < n; i += 25) {
    placed.push(...(await Promise.all(Array.from({ length: Math.min(25, n - i) }, () => placeOrder()))))
  }
  return placed
}

async function isPaid(id: string): Promise<boolean> {
  const r = (await database.db.execute(sql`select status from orders where id = ${id}`)) as unknown as {
    rows: { status: string }[]
  }
  return r.rows[0]?.status === 'paid'
}

const median = (s: number[]) => s[Math.floor((s.length - 1) / 2)] ?? 0
const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const loadavg = async () =>
  (await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')

console.log(
  `EVM payment latency on Anvil (chain id 56, a block every ${BLOCK_S} s, depth ${DEPTH}), database ${database.kind}, ${ROUNDS} payments a scenario, load average ${await loadavg()}`,
)
// Nonces: one buyer sends every transfer, one at a time into the node's pool.
let sending = Promise.resolve()
function pay(o: Order) {
  const next = sending.then(() => transfer(anvil, usdt, buyer, o.address, o.amount, { wait: false }))
  sending = next.then(
    () => undefined,
    () => undefined,
  )
  return next
}
const pending: Order[] = []
for (const target of SCENARIOS) {
  await database.db.execute(sql`update orders set status = 'cancelled' where status = 'pending'`)
  pending.push(...(await placeMany(target + ROUNDS - 1)))
  const payers = pending.splice(0, ROUNDS)
  const started = Date.now()
  const toSighting: number[] = []
  const toPaid: number[] = []
  await Promise.all(
    payers.map(async (o) => {
      await new Promise((r) => setTimeout(r, Math.random() * 20_000))
      let known = (await call('secure_get_order_status', { p_order_id: o.id, p_order_secret: o.secret }))
        .version as string
      const hash = await pay(o)
      const receipt = await anvil.client.waitForTransactionReceipt({ hash, timeout: 120_000 })
      if (receipt.status !== 'success') throw new Error('the transfer reverted')
      const block = Number(receipt.blockNumber)
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
      toSighting.push(Math.max(0, Date.now() - (await whenSeen(block))))
      while (!(await isPaid(o.id))) {
        if (Date.now() - started > 10 * 60_000) throw new Error('not paid within 10 minutes')
        await new Promise((r) => setTimeout(r, 20))
      }
      const paidAt = Date.now()
      toPaid.push(Math.max(0, paidAt - (await whenSeen(block + DEPTH - 1))))
    }),
  )
  toSighting.sort((a, b) => a - b)
  toPaid.sort((a, b) => a - b)
  console.log(
    `${String(target).padStart(5)} open  n=${toSighting.length}  block → "confirming": median ${fmt(median(toSighting))}, worst ${fmt(toSighting.at(-1) ?? 0)}   depth reached → paid: median ${fmt(median(toPaid))}, worst ${fmt(toPaid.at(-1) ?? 0)}`,
  )
}
console.log(`load average at the end ${await loadavg()}`)
watching = false
await blockWatch
for (const w of app.services.sightingWatchers) await w.stop()
await follower.stop()
await app.close()
await database.close()
await anvil.stop()
if (!process.env.DATABASE_URL) rmSync(dataDir, { recursive: true, force: true })
