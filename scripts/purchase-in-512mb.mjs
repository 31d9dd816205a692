// Runs the built shop (dist/, embedded PGlite, a fresh data folder) the way a 512 MB server runs it
// under systemd's MemoryMax=512M: inside a memory cgroup of its own with a 512 MB limit and no
// swap, its first start included (migrations, seeding). A devchain outside the limit stands in for
// TRON. A buyer places an order, pays it on the chain, and the order must become paid. Fails when
// the shop is killed or misses a step; prints the cgroup's peak memory and the shop's peak RSS.
// Needs root and a memory cgroup (v2, or v1's memory hierarchy); CI runs it:
//   node scripts/purchase-in-512mb.mjs          (MEMORY_LIMIT_MB=512)
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buyOnDevchain } from './lib/devchain-purchase.mjs'

const LIMIT_MB = Number(process.env.MEMORY_LIMIT_MB ?? 512)
const DEADLINE_MS = 60_000

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })

/** A memory cgroup with the limit, on cgroup v2 or v1; the files to read back from it. */
function createCgroup() {
  const name = `stablecart-${LIMIT_MB}mb-${process.pid}`
  const bytes = String(LIMIT_MB * 1024 * 1024)
  const v2 = '/sys/fs/cgroup'
  if (existsSync(join(v2, 'cgroup.controllers'))) {
    const controllers = readFileSync(join(v2, 'cgroup.controllers'), 'utf8')
    if (controllers.split(/\s+/).includes('memory')) {
      const enabled = readFileSync(join(v2, 'cgroup.subtree_control'), 'utf8')
      if (!enabled.split(/\s+/).includes('memory'))
        writeFileSync(join(v2, 'cgroup.subtree_control'), '+memory')
      const dir = join(v2, name)
      mkdirSync(dir)
      writeFileSync(join(dir, 'memory.max'), bytes)
      if (existsSync(join(dir, 'memory.swap.max'))) writeFileSync(join(dir, 'memory.swap.max'), '0')
      return {
        dir,
        version: 2,
        peak: () =>
          existsSync(join(dir, 'memory.peak')) ? Number(readFileSync(join(dir, 'memory.peak'), 'utf8')) : NaN,
        ooms: () => Number(/oom_kill (\d+)/.exec(readFileSync(join(dir, 'memory.events'), 'utf8'))?.[1] ?? 0),
      }
    }
  }
  const v1 = '/sys/fs/cgroup/memory'
  if (existsSync(join(v1, 'memory.limit_in_bytes'))) {
    const dir = join(v1, name)
    mkdirSync(dir)
    writeFileSync(join(dir, 'memory.limit_in_bytes'), bytes)
    // Without swap accounting the limit holds anyway on a machine with no swap; with it, swap is barred.
    if (existsSync(join(dir, 'memory.memsw.limit_in_bytes')))
      writeFileSync(join(dir, 'memory.memsw.limit_in_bytes'), bytes)
    return {
      dir,
      version: 1,
      peak: () => Number(readFileSync(join(dir, 'memory.max_usage_in_bytes'), 'utf8')),
      ooms: () =>
        Number(/oom_kill (\d+)/.exec(readFileSync(join(dir, 'memory.oom_control'), 'utf8'))?.[1] ?? 0),
    }
  }
  throw new Error('no memory cgroup to use (neither cgroup v2 with the memory controller nor v1 memory)')
}

const shopPort = await freePort()
const chainPort = await freePort()
const shopUrl = `http://127.0.0.1:${shopPort}`
const chainUrl = `http://127.0.0.1:${chainPort}`
const dataDir = mkdtempSync(join(tmpdir(), 'stablecart-512mb-'))
const cgroup = createCgroup()
let output = ''
const children = []

function start(command, args, env) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout.on('data', (d) => {
    output += d
  })
  child.stderr.on('data', (d) => {
    output += d
  })
  children.push(child)
  return child
}

async function until(what, check) {
  const deadline = Date.now() + DEADLINE_MS
  for (;;) {
    if (shop?.exitCode !== null && shop?.exitCode !== undefined)
      throw new Error(`the shop exited (${shop.exitCode}) while waiting for ${what}`)
    if (shop?.signalCode)
      throw new Error(`the shop was killed (${shop.signalCode}) while waiting for ${what}`)
    try {
      const value = await check()
      if (value) return value
    } catch {}
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

let shop
let failed = false
const t0 = Date.now()
try {
  start(
    process.execPath,
    [join('node_modules', 'tsx', 'dist', 'cli.mjs'), join('tools', 'devchain', 'main.ts')],
    {
      DEVCHAIN_PORT: String(chainPort),
      DEVCHAIN_AUTO_MINE: 'false',
    },
  )
  await until('the devchain', async () => (await fetch(`${chainUrl}/_sim/state`)).ok)
  // The shell joins the cgroup and then becomes the shop, so every thread of the shop is inside.
  shop = start(
    '/bin/sh',
    [
      '-c',
      `echo $$ > ${join(cgroup.dir, 'cgroup.procs')} && exec "$0" dist/server/main.js`,
      process.execPath,
    ],
    {
      PORT: String(shopPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      TRON_API_URL: chainUrl,
      PRICE_SOURCE: 'fixed:0.25',
      FOLLOWER_INTERVAL_MS: '200',
      LOG_LEVEL: 'warn',
    },
  )
  await until('the shop to answer', async () => (await fetch(`${shopUrl}/api/health`)).ok)
  const startedIn = Date.now() - t0

  const order = await buyOnDevchain({ shopUrl, chainUrl, until })
  const hwm = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${shop.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
  if (cgroup.ooms() > 0) throw new Error('the kernel killed a process of the shop for memory')
  console.log(
    `purchase-in-${LIMIT_MB}mb: Node ${process.version}, cgroup v${cgroup.version} limit ${LIMIT_MB} MB: ` +
      `first start answered in ${(startedIn / 1000).toFixed(1)} s, order ${order.order_id} paid on the devchain; ` +
      `shop peak RSS ${hwm.toFixed(0)} MB, cgroup peak ${(cgroup.peak() / 1048576).toFixed(0)} MB (page cache included)`,
  )
} catch (error) {
  failed = true
  console.error(`purchase-in-${LIMIT_MB}mb failed: ${error.message}\n--- output ---\n${output}`)
} finally {
  for (const child of children) {
    if (child.exitCode === null && !child.signalCode) {
      child.kill('SIGTERM')
      await new Promise((r) => child.once('exit', r))
    }
  }
  rmSync(dataDir, { recursive: true, force: true })
  rmdirSync(cgroup.dir)
}
process.exit(failed ? 1 : 0)
