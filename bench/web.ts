// The storefront's weight and Lighthouse scores, as a phone on a fresh visit sees them.
//   npm run bench:web                  (builds first; BENCH_NO_BUILD=1 skips the build)
// Prints, for each page, the script bytes a fresh Chromium downloads (compressed bodies, and with
// their response headers) and the Lighthouse mobile scores, median of BENCH_RUNS (3) runs; then each
// page's scripts one by one (the first chunk, the page's messages, a lazy page's chunk), the bytes of
// each as downloaded. The standard for `/` is at most 100 KB (102,400 bytes) of script bodies.
// Lighthouse (12.8 or 13; 13 needs Node 22.19 or newer on PATH) is not one of the shop's dependencies
// (it is large): install it once with
//   npm i -g lighthouse@13        or point LIGHTHOUSE_BIN at its CLI.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'

// Every page in English; the catalogue pages in Chinese and Russian too (a ?lang= link, as shared).
const PAGES = [
  '/',
  '/product/1',
  '/cart',
  '/admin/login',
  ...['zh', 'ru'].flatMap((lang) => [`/?lang=${lang}`, `/product/1?lang=${lang}`]),
]
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const PORT = Number(process.env.BENCH_PORT ?? process.env.E2E_PORT ?? 4390)
const CHROME = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const base = `http://127.0.0.1:${PORT}`

function findLighthouse(): string | undefined {
  const candidates = [
    process.env.LIGHTHOUSE_BIN,
    join(tmpdir(), 'lh', 'node_modules', '.bin', 'lighthouse'),
  ].filter((c): c is string => Boolean(c))
  for (const c of candidates) if (existsSync(c)) return c
  const which = spawnSync('sh', ['-c', 'command -v lighthouse'], { encoding: 'utf8' })
  return which.status === 0 ? which.stdout.trim() : undefined
}

if (!process.env.BENCH_NO_BUILD) execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' })

const dataDir = mkdtempSync(join(tmpdir(), 'stablecart-bench-web-'))
const shop = spawn(process.execPath, [join('dist', 'server', 'main.js')], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    PRICE_SOURCE: 'fixed:0.25',
    // No chain needed: nobody pays during the benchmark.
    TRON_API_URL: 'http://127.0.0.1:9',
  },
})
const stop = () => {
  shop.kill('SIGTERM')
  rmSync(dataDir, { recursive: true, force: true })
}

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break
    } catch {}
    // Migrations on a fresh embedded database take a while on a busy machine.
    if (i > 1200) throw new Error('the shop did not start')
    await new Promise((r) => setTimeout(r, 100))
  }

  // 1. Script bytes on a first visit: a fresh browser context each time, nothing cached.
  const browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox', '--disable-gpu'] })
  const scriptBytes = new Map<
    string,
    { body: number; transferred: number; files: number; chunks: { file: string; body: number }[] }
  >()
  for (const path of PAGES) {
    const context = await browser.newContext()
    const page = await context.newPage()
    const done: Promise<void>[] = []
    let body = 0
    let transferred = 0
    let files = 0
    const chunks: { file: string; body: number }[] = []
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'script') return
      files++
      done.push(
        request.sizes().then((s) => {
          chunks.push({ file: new URL(request.url()).pathname, body: s.responseBodySize })
          body += s.responseBodySize
          transferred += s.responseBodySize + s.responseHeadersSize
        }),
      )
    })
    await page.goto(base + path, { waitUntil: 'networkidle' })
    await Promise.all(done)
    scriptBytes.set(path, { body, transferred, files, chunks: chunks.sort((a, b) => b.body - a.body) })
    await context.close()
  }
  await browser.close()

  // 2. Lighthouse, mobile (its default), median of RUNS.
  const lighthouse = findLighthouse()
  const scores = new Map<string, Record<string, number>>()
  if (!lighthouse) {
    console.log('Lighthouse not found: npm i -g lighthouse@13 (or set LIGHTHOUSE_BIN). Skipping scores.')
  } else {
    for (const path of PAGES) {
      const runs: Record<string, number>[] = []
      for (let r = 0; r < RUNS; r++) {
        const once = () =>
          spawnSync(
            lighthouse,
            [
              base + path,
              '--output=json',
              '--output-path=stdout',
              '--quiet',
              '--only-categories=performance,accessibility,best-practices,seo',
              '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
            ],
            { encoding: 'utf8', env: { ...process.env, CHROME_PATH: CHROME }, maxBuffer: 64 * 1024 * 1024 },
          )
        // Lighthouse sometimes loses a trace on a busy machine (NO_NAVSTART): try that run again.
        let out = once()
        for (let retry = 0; out.status !== 0 && retry < 2; retry++) out = once()
        if (out.status !== 0) throw new Error(`lighthouse failed on ${path}: ${out.stderr.slice(-2000)}`)
        const report = JSON.parse(out.stdout)
        const c = report.categories
        const a = report.audits
        runs.push({
          performance: Math.round(c.performance.score * 100),
          accessibility: Math.round(c.accessibility.score * 100),
          'best-practices': Math.round(c['best-practices'].score * 100),
          seo: Math.round(c.seo.score * 100),
          fcp: a['first-contentful-paint'].numericValue,
          lcp: a['largest-contentful-paint'].numericValue,
          tbt: a['total-blocking-time'].numericValue,
          cls: a['cumulative-layout-shift'].numericValue,
        })
        if (process.env.BENCH_VERBOSE) {
          for (const [id, audit] of Object.entries<{ score: number | null; title: string }>(a)) {
            if (audit.score !== null && audit.score < 1 && report.auditRefs !== null)
              console.log(`  ${path} run ${r + 1}: ${id} ${audit.score} ${audit.title}`)
          }
        }
      }
      const median = (key: string) => {
        const v = runs.map((r) => r[key] as number).sort((x, y) => x - y)
        return v[Math.floor(v.length / 2)] as number
      }
      scores.set(path, Object.fromEntries(Object.keys(runs[0] ?? {}).map((k) => [k, median(k)])))
    }
  }

  console.log(
    `\nStorefront on a fresh visit (script bodies as compressed, and with their response headers; Lighthouse mobile, median of ${RUNS})`,
  )
  console.log(
    'page'.padEnd(20) +
      'JS body'.padStart(9) +
      '+headers'.padStart(9) +
      'files'.padStart(7) +
      'perf'.padStart(6) +
      'a11y'.padStart(6) +
      'bp'.padStart(5) +
      'seo'.padStart(5) +
      'FCP ms'.padStart(8) +
      'LCP ms'.padStart(8) +
      'TBT ms'.padStart(8) +
      'CLS'.padStart(7),
  )
  for (const path of PAGES) {
    const js = scriptBytes.get(path)
    const s = scores.get(path)
    const n = (v: number | undefined, w: number, digits = 0) =>
      (v === undefined ? '-' : v.toFixed(digits)).padStart(w)
    console.log(
      path.padEnd(20) +
        n(js?.body, 9) +
        n(js?.transferred, 9) +
        n(js?.files, 7) +
        n(s?.performance, 6) +
        n(s?.accessibility, 6) +
        n(s?.['best-practices'], 5) +
        n(s?.seo, 5) +
        n(s?.fcp, 8) +
        n(s?.lcp, 8) +
        n(s?.tbt, 8) +
        n(s?.cls, 7, 3),
    )
  }

  console.log('\nScripts of each first visit, one by one (compressed bodies, bytes)')
  for (const path of PAGES) {
    const js = scriptBytes.get(path)
    if (!js) continue
    console.log(`${path}  ${js.body} bytes in ${js.files} files`)
    for (const chunk of js.chunks) console.log(`  ${String(chunk.body).padStart(9)}  ${chunk.file}`)
  }
} finally {
  stop()
}
