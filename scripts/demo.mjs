// `npm run demo`: the built shop pointed at a local devchain (the TronGrid stand-in), so a new user
// can buy end to end on one machine. Pay with `npm run pay -- <address> <amount>` in another terminal.
// The demo keeps its own database under ./data/demo; your real shop's data is not touched.
import { spawn } from 'node:child_process'
import { join } from 'node:path'

const port = process.env.PORT ?? '3000'
const devchainPort = process.env.DEVCHAIN_PORT ?? '9090'
const devchainUrl = `http://127.0.0.1:${devchainPort}`

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

start([join('node_modules', 'tsx', 'dist', 'cli.mjs'), join('tools', 'devchain', 'main.ts')], {
  DEVCHAIN_PORT: devchainPort,
})
for (let i = 0; i < 100; i++) {
  try {
    if ((await fetch(`${devchainUrl}/_sim/state`)).ok) break
  } catch {}
  await new Promise((r) => setTimeout(r, 100))
}

start([join('dist', 'server', 'main.js')], {
  PORT: port,
  DATA_DIR: process.env.DEMO_DATA_DIR ?? join('data', 'demo'),
  DATABASE_URL: '',
  TRON_API_URL: devchainUrl,
  PRICE_SOURCE: 'binance',
  PRICE_API_URL: devchainUrl,
})

setTimeout(() => {
  console.log(`
  Demo shop: http://localhost:${port}  (chain: devchain on ${devchainUrl})
  Buy something, then pay the amount shown on the payment page from another terminal:
    npm run pay -- <wallet address> <amount>          # USDT-TRC20
    npm run pay -- <wallet address> <amount> TRX      # TRX
`)
}, 1500)

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal)
  })
}
