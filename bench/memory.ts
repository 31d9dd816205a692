// The built shop's memory, as `top` shows it (resident memory of the whole process, the PGlite
// thread included), on the embedded PGlite and (with DATABASE_URL) on PostgreSQL:
//   1. a first start on an empty data folder (migrations, seeding): peak, and idle once it listens;
//   2. a restart with `npm start` and a current build: how long until it listens, and idle;
//   3. steady storefront and checkout traffic for BENCH_STEADY_MINUTES (10): pages, the catalogue,
//      orders placed, polled and cancelled, from buyers of their own; memory at the end, after the
//      traffic stops, and the peak of the whole run.
// Targets on PGlite (decision 026): idle ≤ 200 MB, after steady traffic ≤ 250 MB, first-start peak ≤ 350 MB,
// restart ≤ 2 s.
//   npm run bench:memory                         (builds first when the build is stale)
//   DATABASE_URL=postgres://... npm run bench:memory
//   BENCH_ENGINES=pglite|postgres, BENCH_STEADY_MINUTES (10; 60 for the hour of the target),
//   BENCH_IDLE_MINUTES (0: also wait this long idle after the restart, sampling every 5 s),
//   BENCH_PORT (5150), BENCH_CHECKOUTS_PER_S (2), BENCH_EVM=1 (also follow two EVM chains on real
//   Anvil nodes making a block every 2 s: BNB Smart Chain and Base, with TRON; ANVIL_PORTS_FROM),
//   BENCH_SOLANA=1 (also follow Solana on the LiteSVM stand-in making a slot every 400 ms).
//   The shop runs on the Node that runs the benchmark:
//   PATH=/path/to/node24/bin:$PATH npm run bench:memory
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testAddresses } from '../tests/support/test-addresses'
import { createBenchDatabase, dropBenchDatabase, onEngines } from './support/bench-db'
import { type BenchEvmChains, startBenchEvmChains } from './support/evm-chains'
import { type BenchSolana, startBenchSolana } from './support/solana-chain'

const STEADY_MINUTES = Number(process.env.BENCH_STEADY_MINUTES ?? 10)
const IDLE_MINUTES = Number(process.env.BENCH_IDLE_MINUTES ?? 0)
const PORT = Number(process.env.BENCH_PORT ?? 5150)
const CHECKOUTS_PER_S = Number(process.env.BENCH_CHECKOUTS_PER_S ?? 2)
const PAGES_PER_CHECKOUT = 5
const base = `http://127.0.0.1:${PORT}`
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const EVM = process.env.BENCH_EVM === '1'
let evm: BenchEvmChains | undefined
const SOLANA = process.env.BENCH_SOLANA === '1'
let solana: BenchSolana | undefined

execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], { stdio: 'inherit' })

/** Resident memory now and at its highest so far, in MB, of a process (all its threads). */
function memory(pid: number): { rss: number; peak: number; anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
  return {
    rss: kb('VmRSS') / 1024,
    peak: kb('VmHWM') / 1024,
    anon: kb('RssAnon') / 1024,
    file: kb('RssFile') / 1024,
  }
}

/** The shop's own node process: `npm start` runs it as a child of npm's shell. */
function shopPid(child: ChildProcess): number {
  for (let pid = child.pid as number; ; ) {
    // The shop restarts itself with its V8 flags before the script, named by its absolute path
    // (src/server/launch.ts).
    const [program, ...args] = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    if (program?.endsWith('node') && args.some((a) => a.endsWith('dist/server/main.js'))) return pid
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)
    if (!children[0]) throw new Error('the shop process is not running')
    pid = Number(children[0])
  }
}

/** CPU time (user + system, all threads) a process has used so far, in seconds. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  return (Number(fields[11]) + Number(fields[12])) / 100
}

async function untilListening(child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the shop exited with ${child.exitCode}`)
    try {
      if ((await fetch(`${base}/api/health`)).ok) return
    } catch {}
    await sleep(20)
  }
}

/** Stops the shop (pid, when npm runs it) and waits for child to exit. */
async function stop(child: ChildProcess, pid = child.pid as number): Promise<void> {
  if (child.exitCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  process.kill(pid, 'SIGTERM')
  await exited
}

async function post(path: string, body: unknown, buyer: number): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      // Each buyer from a network of its own: the pool guard limits unpaid orders per network.
      'x-forwarded-for': `10.${buyer & 255}.${(buyer >> 8) & 255}.${(buyer >> 16) & 255}`,
    },
    body: JSON.stringify(body),
  })
  return (await res.json()) as Record<string, unknown>
}

/** One buyer: browses, orders, looks at the payment page's status a few times, then cancels. */
async function buyer(i: number, product: { id: number; price: number }): Promise<void> {
  for (const path of ['/', '/products', `/product/${product.id}`, '/cart', '/checkout'].slice(
    0,
    PAGES_PER_CHECKOUT,
  )) {
    await fetch(`${base}${path}`).then((r) => r.arrayBuffer())
  }
  await post('/rpc/fetch_products', {}, i)
  await post('/rpc/secure_fetch_site_content', {}, i)
  const order = await post(
    '/rpc/secure_create_order',
    {
      p_email: `buyer${i}@example.com`,
      p_items: [{ product: { id: product.id }, quantity: 1 }],
      p_total: product.price,
    },
    i,
  )
  if (order.success !== true) throw new Error(`checkout refused: ${JSON.stringify(order)}`)
  const ids = { p_order_id: order.order_id, p_order_secret: order.order_secret }
  for (let poll = 0; poll < 3; poll++) await post('/rpc/secure_get_order_status', ids, i)
  await post('/rpc/secure_cancel_order', ids, i)
}

async function run(kind: 'pglite' | 'postgres'): Promise<void> {
  // Another shop on the port would answer for ours and every figure would be wrong.
  const taken = await fetch(`${base}/api/health`).then(
    () => true,
    () => false,
  )
  if (taken) throw new Error(`something already answers on ${base}: set BENCH_PORT`)
  const dataDir = mkdtempSync(join(tmpdir(), 'stablecart-bench-memory-'))
  const shops: number[] = []
  const created = kind === 'postgres' ? await createBenchDatabase() : undefined
  const dbName = created?.name
  const databaseUrl = created?.url ?? ''
  const env = {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    PRICE_SOURCE: 'fixed:0.25',
    TRUST_PROXY: 'true',
    // Nobody pays: the chain follower only retries an explorer that is not there.
    TRON_API_URL: 'http://127.0.0.1:9',
    ...evm?.env,
    ...solana?.env,
  }
  const line = (label: string, value: string) => console.log(`${kind.padEnd(9)}${label.padEnd(44)}${value}`)
  const mb = (v: number) => `${v.toFixed(0)} MB`
  try {
    // 1. First start.
    let shop = spawn(process.execPath, ['dist/server/main.js'], { env, stdio: 'ignore' })
    shops.push(shop.pid as number)
    await untilListening(shop)
    await sleep(10_000)
    const first = memory(shop.pid as number)
    line('first start (migrations, seeding): peak', mb(first.peak))
    line('idle 10 s after the first start', mb(first.rss))
    await stop(shop)

    // The pool for the steady traffic: every order holds its address, then the address cools down.
    const orders = Math.ceil(STEADY_MINUTES * 60 * CHECKOUTS_PER_S)
    const poolFile = join(dataDir, 'pool.txt')
    const tron = testAddresses(orders + 100, `bench memory ${Date.now()}`)
    writeFileSync(poolFile, [...tron, ...(evm?.addresses ?? []), ...(solana?.addresses ?? [])].join('\n'))
    execFileSync(process.execPath, ['dist/server/cli.js', 'wallets:add', '--file', poolFile], {
      env,
      stdio: 'ignore',
    })

    // 2. Restarts with a current build: the shop itself (what a service manager runs), then through
    // npm start (which first checks that the build is current).
    {
      const t = performance.now()
      const direct = spawn(process.execPath, ['dist/server/main.js'], { env, stdio: 'ignore' })
      shops.push(direct.pid as number)
      await untilListening(direct)
      line(
        'restart (node dist/server/main.js): listening after',
        `${((performance.now() - t) / 1000).toFixed(2)} s`,
      )
      line('  CPU used until then (all threads)', `${cpuSeconds(direct.pid as number).toFixed(2)} s`)
      await stop(direct)
    }
    const t0 = performance.now()
    shop = spawn('npm', ['start', '--silent'], { env, stdio: 'ignore' })
    await untilListening(shop)
    line('restart with npm start: listening after', `${((performance.now() - t0) / 1000).toFixed(2)} s`)
    const pid = shopPid(shop)
    shops.push(pid)
    await sleep(10_000)
    line('idle 10 s after the restart', mb(memory(pid).rss))
    if (IDLE_MINUTES > 0) {
      // Followers and sighting watchers keep reading while nobody buys: what that costs over time.
      let highestIdle = 0
      for (const end = performance.now() + IDLE_MINUTES * 60_000; performance.now() < end; ) {
        await sleep(5_000)
        highestIdle = Math.max(highestIdle, memory(pid).rss)
      }
      line(`idle ${IDLE_MINUTES} min after the restart: now`, mb(memory(pid).rss))
      line(`  highest over those ${IDLE_MINUTES} min`, mb(highestIdle))
    }

    // 3. Steady traffic.
    const products = (
      (await post('/rpc/fetch_products', {}, 1)).products as {
        id: number
        price: number
        is_free: boolean
      }[]
    ).filter((p) => !p.is_free && p.price > 0)
    const cpuBefore = cpuSeconds(pid)
    const started = performance.now()
    const end = started + STEADY_MINUTES * 60_000
    let placed = 0
    let highest = 0
    const sampler = setInterval(() => {
      highest = Math.max(highest, memory(pid).rss)
    }, 1000)
    const inflight = new Set<Promise<void>>()
    while (performance.now() < end) {
      const due = started + (placed * 1000) / CHECKOUTS_PER_S
      if (performance.now() < due) await sleep(due - performance.now())
      const i = placed++
      const p = buyer(i, products[i % products.length] as { id: number; price: number }).finally(() =>
        inflight.delete(p),
      )
      inflight.add(p)
    }
    await Promise.all(inflight)
    clearInterval(sampler)
    const loaded = memory(pid)
    line(`after ${STEADY_MINUTES} min of steady traffic (${placed} checkouts)`, mb(loaded.rss))
    // Pages mapped from files (Node's binary, ICU's data) are shared and clean: the kernel can take
    // them back; the anonymous ones are the shop's own.
    line('  of which anonymous / mapped from files', `${mb(loaded.anon)} / ${mb(loaded.file)}`)
    line('highest while the traffic ran', mb(highest))
    line('  CPU the traffic cost (all threads)', `${(cpuSeconds(pid) - cpuBefore).toFixed(1)} s`)
    await sleep(10_000)
    line('idle 10 s after the traffic', mb(memory(pid).rss))
    line('peak of the restarted process', mb(memory(pid).peak))
    await stop(shop, pid)
  } finally {
    // A shop left running would hold the port and answer for the next run.
    for (const pid of shops) {
      try {
        if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('dist/server/main.js'))
          process.kill(pid, 'SIGKILL')
      } catch {}
    }
    rmSync(dataDir, { recursive: true, force: true })
    if (dbName) await dropBenchDatabase(dbName)
  }
}

console.log(
  `Node ${process.version}, load average ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
)
if (EVM) {
  evm = await startBenchEvmChains()
  console.log('with TRON, BNB Smart Chain and Base enabled (two Anvil nodes, a block every 2 s)')
}
if (SOLANA) {
  solana = await startBenchSolana()
  console.log('with Solana enabled (the LiteSVM stand-in, a slot every 400 ms)')
}
try {
  await onEngines(run)
} finally {
  await evm?.stop()
  await solana?.stop()
}
console.log(
  `load average at the end ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
)
