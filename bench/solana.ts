// `npm run bench:solana`: Solana on the stand-in (LiteSVM, the real SPL Token program) making a
// slot every 400 ms, confirmed one slot after, finalized BENCH_FINALIZE_DEPTH (8) slots after.
//   BENCH_MODE=latency  the time from a payment's slot being confirmed to the payment page's
//     sighting ("confirming"), and from its slot being finalized to the order reading paid; 20
//     payments at random moments with 1 and 1,000 open orders (BENCH_OPEN, BENCH_ROUNDS), one
//     provider without a daily limit, SOLANA_POLL_MS=1000 (the default).
//   BENCH_MODE=budget   requests the providers answered with one order open for BENCH_WINDOW_S
//     (90) seconds, then with none open for BENCH_IDLE_S (200), on one key of PER_DAY 30,000,
//     scaled to a day.
// Slot times are the stand-in's own (when each slot was made), so the figures are exact to the
// database polls (every 20 ms). The shop runs in this process on a fresh embedded database (or
// DATABASE_URL), its follower and sighting watcher as the server starts them.
import { rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import { generateKeyPairSigner } from '@solana/kit'
import { sql } from 'drizzle-orm'
import { buildApp } from '../src/server/app'
import { createChainFollower } from '../src/server/chains/chain-follower'
import { openDatabase } from '../src/server/db/client'
import { seedOnce } from '../src/server/db/seed'
import { parseEnv } from '../src/server/env'
import { addWalletAddresses } from '../src/server/wallets/wallets.repo'
import { serveRpc } from '../tools/solana-standin/rpc'
import { createStandin } from '../tools/solana-standin/standin'
import { transferInstructions } from '../tools/solana-standin/transfers'

const MODE = process.env.BENCH_MODE ?? 'latency'
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20)
const SCENARIOS = (process.env.BENCH_OPEN ?? '1,1000').split(',').filter(Boolean).map(Number)
const FINALIZE_DEPTH = Number(process.env.BENCH_FINALIZE_DEPTH ?? 8)
const WINDOW_S = Number(process.env.BENCH_WINDOW_S ?? 90)
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 200)

const standin = await createStandin({ slotMs: 400, finalizeDepth: FINALIZE_DEPTH })
const front = await serveRpc(standin)
const buyer = await generateKeyPairSigner()
standin.airdrop(buyer.address, 1_000_000_000_000n)
await standin.mintTo(standin.mints.usdt, buyer.address, 10n ** 15n)

const dataDir = `.tmp/bench-solana-${Date.now()}`
const env = parseEnv({
  DATA_DIR: dataDir,
  DATABASE_URL: process.env.DATABASE_URL,
  TRON_API_URL: 'http://127.0.0.1:9',
  PRICE_SOURCE: 'fixed:0.25',
  LOG_LEVEL: 'silent',
  CHECKOUT_PENDING_PER_CLIENT: '100000',
  CHECKOUT_PENDING_PER_EMAIL: '100000',
  CHECKOUT_CREATIONS_PER_MINUTE: '100000',
  CHECKOUT_HELD_PER_NETWORK: '100000',
  CHECKOUT_RESERVE_PERCENT: '0',
  SOLANA_ENABLED: 'true',
  SOLANA_PROVIDER_1_URL: front.url,
  SOLANA_PROVIDER_1_RPS: '1000',
  ...(MODE === 'budget' ? { SOLANA_PROVIDER_1_PER_DAY: '30000' } : {}),
})
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
await seedOnce(database.db)
for (const table of [
  'payments',
  'payment_sightings',
  'address_leases',
  'mail_outbox',
  'license_keys',
  'orders',
  'follower_state',
]) {
  await database.db.execute(sql.raw(`delete from ${table}`))
}
await database.db.execute(sql`delete from wallet_addresses`)
const maxOpen = MODE === 'budget' ? 1 : Math.max(0, ...SCENARIOS)
const poolKeys = await Promise.all(
  Array.from({ length: maxOpen + ROUNDS * (SCENARIOS.length + 1) + 20 }, () => generateKeyPairSigner()),
)
await addWalletAddresses(
  database.db,
  poolKeys.map((k) => ({ address: k.address, family: 'solana' as const })),
)
const app = await buildApp({ env, database })
await app.listen({ port: 0, host: '127.0.0.1' })
const listening = app.server.address()
const base = `http://127.0.0.1:${typeof listening === 'object' && listening ? listening.port : 0}`
const chain = app.services.chains.require('solana')
const follower = createChainFollower({
  db: database.db,
  chain,
  rules: app.services.rules,
  batchBlocks: env.FOLLOWER_BATCH_BLOCKS,
  intervalMs: env.FOLLOWER_INTERVAL_MS,
  idleEveryMs: env.FOLLOWER_IDLE_EVERY_MS,
  blockIntervalMs: chain.followEveryMs ?? chain.blockIntervalMs,
  onPaid: (id) => app.services.orderPaid.emit(id),
  onCommitted: () => app.services.orderWatch.notify('*'),
})
// As server.ts does: a checkout wakes an idle follower.
app.services.checkoutAsked.on(() => follower.wake())
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
  address: string
  amount: bigint
}
async function placeOrder(): Promise<Order> {
  const body = await call('secure_create_order', {
    p_email: 'bench@example.com',
    p_items: [{ product: { id: product.id }, quantity: 1 }],
    p_total: product.price,
    p_chain: 'solana',
    p_token: 'USDT',
  })
  if (!body.success) throw new Error(JSON.stringify(body))
  return {
    id: body.order_id as string,
    address: body.wallet_address as string,
    amount: BigInt(body.amount_units as string),
  }
}
async function placeMany(n: number) {
  const placed: Order[] = []
  for (let i = 0; i < n; i += 25)
    placed.push(...(await Promise.all(Array.from({ length: Math.min(25, n - i) }, placeOrder))))
  return placed
}
const rowsOf = async (q: ReturnType<typeof sql>) =>
  ((await database.db.execute(q)) as unknown as { rows: Record<string, unknown>[] }).rows
/** When `check` first holds (polled every 20 ms); NaN after BENCH_TIMEOUT_S (120) without it. */
const until = async (check: () => Promise<boolean>) => {
  const give = Date.now() + Number(process.env.BENCH_TIMEOUT_S ?? 120) * 1000
  while (!(await check())) {
    if (Date.now() > give) return Number.NaN
    await new Promise((r) => setTimeout(r, 20))
  }
  return Date.now()
}
/**
 * When a transaction's sighting is first stored, and when an order first reads paid: one poll of the
 * database every 20 ms answers every payment waited for (a poll per payment, 40 at once, took most
 * of a core from the shop it measures).
 */
const waiting = { seen: new Map<string, (t: number) => void>(), paid: new Map<string, (t: number) => void>() }
let polling = false
function poll() {
  if (polling) return
  polling = true
  void (async () => {
    while (waiting.seen.size + waiting.paid.size > 0) {
      const now = Date.now()
      if (waiting.seen.size > 0) {
        const ids = [...waiting.seen.keys()]
        for (const r of await rowsOf(
          sql`select distinct tx_id from payment_sightings where tx_id in (${sql.join(
            ids.map((i) => sql`${i}`),
            sql`, `,
          )})`,
        )) {
          waiting.seen.get(String(r.tx_id))?.(now)
          waiting.seen.delete(String(r.tx_id))
        }
      }
      if (waiting.paid.size > 0) {
        const ids = [...waiting.paid.keys()]
        for (const r of await rowsOf(
          sql`select id from orders where status = 'paid' and id in (${sql.join(
            ids.map((i) => sql`${i}`),
            sql`, `,
          )})`,
        )) {
          waiting.paid.get(String(r.id))?.(now)
          waiting.paid.delete(String(r.id))
        }
      }
      await new Promise((r) => setTimeout(r, 20))
    }
    polling = false
  })()
}
/** When `key` is first seen in `set`'s query; NaN after BENCH_TIMEOUT_S (120) without it. */
function whenIn(set: 'seen' | 'paid', key: string): Promise<number> {
  return new Promise((resolve) => {
    const timer = setTimeout(
      () => {
        waiting[set].delete(key)
        resolve(Number.NaN)
      },
      Number(process.env.BENCH_TIMEOUT_S ?? 120) * 1000,
    )
    waiting[set].set(key, (t) => {
      clearTimeout(timer)
      resolve(t)
    })
    poll()
  })
}
const slotAt = (slot: number) =>
  until(async () => standin.slotTime(slot) !== null).then(() => standin.slotTime(slot) as number)
const sorted = (s: number[]) => [...s].sort((a, b) => a - b)
const median = (s: number[]) => sorted(s)[Math.floor((s.length - 1) / 2)] ?? 0
const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')

console.log(
  `Solana on the stand-in (a slot every 400 ms, finalized ${FINALIZE_DEPTH} slots after), database ${database.kind}, mode ${MODE}, load average ${load()}`,
)
if (MODE === 'latency') {
  const pending: Order[] = []
  for (const target of SCENARIOS) {
    await database.db.execute(sql`update orders set status = 'cancelled' where status = 'pending'`)
    pending.push(...(await placeMany(target + ROUNDS - 1)))
    const payers = pending.splice(0, ROUNDS)
    const toSighting: number[] = []
    const toPaid: number[] = []
    const before = front.requests()
    const started = Date.now()
    await Promise.all(
      payers.map(async (o) => {
        await new Promise((r) => setTimeout(r, Math.random() * 20_000))
        const sent = await standin.run(
          buyer,
          await transferInstructions({
            payer: buyer,
            to: o.address,
            mint: standin.mints.usdt,
            amount: o.amount,
          }),
        )
        const tx = standin.transaction(sent.signature)
        if (!tx || sent.err) throw new Error('the transfer failed')
        const seen = whenIn('seen', sent.signature)
        const paid = whenIn('paid', o.id)
        const confirmedAt = await slotAt(tx.slot + 1)
        const finalizedAt = await slotAt(tx.slot + FINALIZE_DEPTH)
        toSighting.push((await seen) - confirmedAt)
        toPaid.push((await paid) - finalizedAt)
        if (process.env.BENCH_VERBOSE)
          console.log(
            `  ${sent.signature.slice(0, 6)} slot ${tx.slot}: confirming ${toSighting.at(-1)} ms, paid ${toPaid.at(-1)} ms`,
          )
      }),
    )
    const missed = [...toSighting, ...toPaid].filter(Number.isNaN).length
    if (missed > 0) console.log(`  ${missed} of the waits ran out (BENCH_TIMEOUT_S)`)
    toSighting.splice(0, toSighting.length, ...toSighting.filter((x) => !Number.isNaN(x)))
    toPaid.splice(0, toPaid.length, ...toPaid.filter((x) => !Number.isNaN(x)))
    const perDay = ((front.requests() - before) / ((Date.now() - started) / 1000)) * 86_400
    console.log(
      `${target} open: confirmed → "confirming" median ${fmt(median(toSighting))} / worst ${fmt(Math.max(...toSighting))}; finalized → paid median ${fmt(median(toPaid))} / worst ${fmt(Math.max(...toPaid))}; ${Math.round(perDay).toLocaleString('en')} requests a day at this rate (no daily limit, SOLANA_POLL_MS ${env.SOLANA.pollMs}); load ${load()}`,
    )
  }
} else {
  const o = await placeOrder()
  const before = front.requests()
  await new Promise((r) => setTimeout(r, WINDOW_S * 1000))
  const open = front.requests() - before
  await database.db.execute(sql`update orders set status = 'cancelled' where id = ${o.id}`)
  await database.db.execute(sql`update wallet_addresses set leased_order_id = null, cooldown_until = null`)
  await new Promise((r) => setTimeout(r, 5000))
  const idleBefore = front.requests()
  await new Promise((r) => setTimeout(r, IDLE_S * 1000))
  const idle = front.requests() - idleBefore
  console.log(
    `one order open, PER_DAY 30000: ${open} requests in ${WINDOW_S} s → ${Math.round((open / WINDOW_S) * 86_400).toLocaleString('en')} a day (listing pace ${(chain as unknown as { followEveryMs: number }).followEveryMs} ms minimum)`,
  )
  console.log(
    `idle: ${idle} requests in ${IDLE_S} s → ${Math.round((idle / IDLE_S) * 86_400).toLocaleString('en')} a day`,
  )
}
for (const w of app.services.sightingWatchers) await w.stop()
await follower.stop()
await app.close()
standin.stop()
await front.close()
rmSync(dataDir, { recursive: true, force: true })
process.exit(0)
