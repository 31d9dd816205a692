// Starts the built shop for the browser tests on a fresh database, so every run begins from the
// seed, with its own devchain (the TronGrid stand-in) on E2E_PORT + 1000 for chain and price.
import { spawn } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'

const port = process.env.E2E_PORT ?? '4317'
const devchainPort = String(Number(port) + 1000)
const devchainUrl = `http://127.0.0.1:${devchainPort}`
const dataDir = join('.tmp', `e2e-${port}`)
rmSync(dataDir, { recursive: true, force: true })
mkdirSync(dataDir, { recursive: true })

const children = []
function start(args, env) {
  const child = spawn(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  children.push(child)
  child.on('exit', (code) => {
    for (const other of children) if (other !== child) other.kill('SIGTERM')
    process.exit(code ?? 0)
  })
  return child
}

const devchain = start(
  [join('node_modules', 'tsx', 'dist', 'cli.mjs'), join('tools', 'devchain', 'main.ts')],
  {
    DEVCHAIN_PORT: devchainPort,
  },
)

// The shop starts once the devchain answers, so its first watcher pass finds it.
for (let i = 0; i < 100; i++) {
  try {
    if ((await fetch(`${devchainUrl}/_sim/state`)).ok) break
  } catch {}
  await new Promise((r) => setTimeout(r, 100))
}

start([join('dist', 'server', 'main.js')], {
  PORT: port,
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  LOG_LEVEL: 'warn',
  DATABASE_URL: '',
  TRON_API_URL: devchainUrl,
  PRICE_SOURCE: process.env.PRICE_SOURCE ?? 'binance',
  PRICE_API_URL: process.env.PRICE_API_URL ?? devchainUrl,
})
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal)
  })
}
void devchain
