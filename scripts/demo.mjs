// `npm run demo`: the built shop pointed at a local devchain (the TronGrid stand-in), a local EVM
// node (Anvil with BNB Smart Chain's chain id, a USDT and a USDC deployed) and the Solana stand-in
// (the real SPL Token program, USDT and USDC at their mainnet mints), so a new user can buy end to
// end on one machine. Pay with `npm run pay -- <address> <amount> [token]` in another terminal.
// Ports: PORT (3000), DEVCHAIN_PORT (9090), ANVIL_PORT (8545), DEMO_SOLANA_PORT (8899).
// The demo keeps its own database (and the EVM node's chain) under ./data/demo; your real shop's data
// is not touched.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DEMO_EVM_DEPTH, demoEvmAddresses, startDemoAnvil } from './lib/demo-evm.mjs'
import { demoSolanaAddresses, startDemoSolana } from './lib/demo-solana.mjs'
import { startShopWithDevchain } from './lib/shop-with-devchain.mjs'

const port = process.env.PORT ?? '3000'
const dataDir = process.env.DEMO_DATA_DIR ?? join('data', 'demo')
const anvilPort = process.env.ANVIL_PORT ?? '8545'
mkdirSync(dataDir, { recursive: true })

const anvil = await startDemoAnvil({
  port: anvilPort,
  dataDir,
  onExit: () => {
    console.error('the EVM node (Anvil) stopped: stopping the demo')
    process.exit(1)
  },
})
process.on('exit', () => anvil.child.kill('SIGTERM'))
const solanaPort = process.env.DEMO_SOLANA_PORT ?? '8899'
const solana = await startDemoSolana({
  port: solanaPort,
  onExit: () => {
    console.error('the Solana stand-in stopped: stopping the demo')
    process.exit(1)
  },
})
process.on('exit', () => solana.child.kill('SIGTERM'))
const shopEnv = { PORT: port, DATA_DIR: dataDir, DATABASE_URL: '', ...anvil.shopEnv, ...solana.shopEnv }

// The demo's EVM receiving addresses join the pool once, after the first start has seeded the
// demo's TRON addresses (those are seeded only into an empty pool).
const marker = join(dataDir, 'evm-pool-added')
if (anvil.fresh && existsSync(marker)) {
  console.warn(
    `The EVM node's saved chain (${join(dataDir, 'anvil-state.json')}) is gone: the shop will stop following
  BNB Smart Chain (its blocks no longer match). Delete ${dataDir} to start the demo over.`,
  )
}
// The Solana ones likewise (their own marker: a demo folder from before Solana gets them too).
const solanaMarker = join(dataDir, 'solana-pool-added')
if (!existsSync(marker) || !existsSync(solanaMarker)) {
  const env = { ...process.env, ...shopEnv, TRON_API_URL: 'http://127.0.0.1:9', PRICE_SOURCE: 'fixed:0.25' }
  const first = spawn(process.execPath, [join('dist', 'server', 'main.js')], { env, stdio: 'ignore' })
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) break
    } catch {}
    if (first.exitCode !== null || i > 600) throw new Error('the shop did not start to seed its database')
    await new Promise((r) => setTimeout(r, 100))
  }
  const exited = new Promise((r) => first.once('exit', r))
  first.kill('SIGTERM')
  await exited
  const add = (name, addresses, done) => {
    if (existsSync(done)) return
    const file = join(dataDir, name)
    writeFileSync(file, `${addresses.join('\n')}\n`)
    execFileSync(process.execPath, [join('dist', 'server', 'cli.js'), 'wallets:add', '--file', file], {
      env,
      stdio: 'inherit',
    })
    writeFileSync(done, '')
  }
  add('evm-addresses.txt', demoEvmAddresses(), marker)
  add('solana-addresses.txt', demoSolanaAddresses(), solanaMarker)
}

const devchainUrl = await startShopWithDevchain({
  devchainPort: process.env.DEVCHAIN_PORT ?? '9090',
  shopEnv,
  // A block a second, solidified five blocks later: a payment shows as paid within a few seconds
  // (mainnet: 3 s blocks, solidified about a minute later).
  devchainEnv: {
    DEVCHAIN_BLOCK_MS: process.env.DEVCHAIN_BLOCK_MS ?? '1000',
    DEVCHAIN_SOLIDIFY_LAG: process.env.DEVCHAIN_SOLIDIFY_LAG ?? '5',
  },
})

setTimeout(() => {
  console.log(`
  Demo shop: http://localhost:${port}  (chains: TRON devchain on ${devchainUrl}; BNB Smart Chain on a
  local Anvil node, ${anvil.url}, a block a second, paid ${DEMO_EVM_DEPTH} blocks deep; Solana on the
  stand-in, ${solana.url}, a slot every 400 ms, paid when finalized)
  Buy something, then pay the amount shown on the payment page from another terminal:
    npm run pay -- <wallet address> <amount>          # USDT-TRC20 (a T… address)
    npm run pay -- <wallet address> <amount> TRX      # TRX
    npm run pay -- <0x… address> <amount> USDT        # USDT on BNB Smart Chain (Anvil)
    npm run pay -- <0x… address> <amount> USDC        # USDC on BNB Smart Chain (Anvil)
    npm run pay -- <Solana address> <amount> USDT     # USDT on Solana (the stand-in; USDC too)
`)
}, 1500)
