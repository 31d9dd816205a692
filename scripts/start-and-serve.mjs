// Starts the built shop (dist/) with whatever `node` is first on PATH, on a fresh data folder,
// and checks that it serves: health, the storefront page, a call that reads the database, and
// metrics with their token; and, on a Node that can replace its process (22.15 and newer), that the
// shop runs under its own V8 flags (src/server/launch.ts). Exits non-zero with the shop's output
// when anything is off. CI runs it on Node 24, 22 and the lowest package.json promises: `node scripts/start-and-serve.mjs`.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const port = await new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address()
    s.close(() => resolve(port))
  })
})
const dataDir = mkdtempSync(join(tmpdir(), 'stablecart-serve-'))
const token = 'start-and-serve-metrics-token'
const url = `http://127.0.0.1:${port}`
let output = ''
const shop = spawn(process.execPath, [join('dist', 'server', 'main.js')], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    PRICE_SOURCE: 'fixed:0.25',
    TRON_API_URL: 'http://127.0.0.1:9',
    METRICS_TOKEN: token,
    LOG_LEVEL: 'info',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
})
shop.stdout.on('data', (d) => {
  output += d
})
shop.stderr.on('data', (d) => {
  output += d
})

async function check() {
  const until = Date.now() + 60_000
  for (;;) {
    if (shop.exitCode !== null) throw new Error(`the shop exited with ${shop.exitCode}`)
    try {
      if ((await fetch(`${url}/api/health`)).ok) break
    } catch {}
    if (Date.now() > until) throw new Error('the shop did not answer /api/health within 60 s')
    await new Promise((r) => setTimeout(r, 100))
  }
  const page = await fetch(`${url}/products`)
  const html = await page.text()
  if (!page.ok || !html.includes('<div id="root">')) throw new Error(`GET /products: ${page.status}`)
  const products = await (await fetch(`${url}/rpc/fetch_products`, { method: 'POST' })).json()
  if (!products.success || products.products.length === 0)
    throw new Error('fetch_products returned no products')
  const metrics = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } })
  const text = await metrics.text()
  if (!metrics.ok || !text.includes('stablecart_orders_pending 0'))
    throw new Error(`GET /metrics: ${metrics.status}`)
  if (typeof process.execve === 'function') {
    // The same process id, now running `node <flags> …/main.js`.
    const args = readFileSync(`/proc/${shop.pid}/cmdline`, 'utf8').split('\0')
    for (const flag of [
      '--max-semi-space-size=1',
      '--liftoff-only',
      '--optimize-for-size',
      '--heap-growing-percent=10',
    ]) {
      if (!args.includes(flag)) throw new Error(`the shop runs without ${flag}: ${args.join(' ')}`)
    }
    // And glibc's malloc settings, which it reads only when a process starts (decisions 034, 070).
    const environ = readFileSync(`/proc/${shop.pid}/environ`, 'utf8').split('\0')
    for (const setting of [
      'MALLOC_ARENA_MAX=2',
      'MALLOC_MMAP_THRESHOLD_=131072',
      'MALLOC_TRIM_THRESHOLD_=131072',
    ]) {
      if (!environ.includes(setting)) throw new Error(`the shop runs without ${setting}`)
    }
  }
  return products.products.length
}

let failed = false
try {
  const n = await check()
  console.log(
    `start-and-serve: Node ${process.version} served health, the storefront, ${n} products and metrics`,
  )
} catch (error) {
  failed = true
  console.error(
    `start-and-serve on Node ${process.version} failed: ${error.message}\n--- shop output ---\n${output}`,
  )
} finally {
  shop.kill('SIGTERM')
  await new Promise((r) => (shop.exitCode !== null ? r() : shop.once('exit', r)))
  rmSync(dataDir, { recursive: true, force: true })
}
process.exit(failed ? 1 : 0)
