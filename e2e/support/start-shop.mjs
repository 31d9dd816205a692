// Starts the built shop for the browser tests on a fresh database, so every run begins from the
// seed, with its own devchain (the TronGrid stand-in) on E2E_DEVCHAIN_PORT (by default E2E_PORT +
// 1000) for chain and price.
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { startShopWithDevchain } from '../../scripts/lib/shop-with-devchain.mjs'

const port = process.env.E2E_PORT ?? '4317'
const devchainPort = process.env.E2E_DEVCHAIN_PORT ?? String(Number(port) + 1000)
const dataDir = join('.tmp', `e2e-${port}`)
rmSync(dataDir, { recursive: true, force: true })
mkdirSync(dataDir, { recursive: true })

await startShopWithDevchain({
  devchainPort,
  // Blocks only when a test mines them, 1 ms apart: payments solidify at once and chain time stays on
  // the wall clock.
  // A spec may run the devchain's own clock instead (DEVCHAIN_AUTO_MINE=true, DEVCHAIN_BLOCK_MS=3000).
  devchainEnv: {
    DEVCHAIN_AUTO_MINE: process.env.DEVCHAIN_AUTO_MINE ?? 'false',
    DEVCHAIN_BLOCK_MS: process.env.DEVCHAIN_BLOCK_MS ?? '1',
  },
  shopEnv: {
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    FOLLOWER_INTERVAL_MS: '200',
    // Five demo addresses serve every spec: an ended order's address rests 3 s, not an hour.
    ADDRESS_COOLDOWN_MINUTES: '0.05',
    DATABASE_URL: '',
    // Every browser test comes from 127.0.0.1; the checkout limits have their own server tests.
    CHECKOUT_PENDING_PER_CLIENT: '100000',
    CHECKOUT_PENDING_PER_EMAIL: '100000',
    CHECKOUT_CREATIONS_PER_MINUTE: '100000',
    CHECKOUT_HELD_PER_NETWORK: '100000',
    CHECKOUT_RESERVE_PERCENT: '0',
    // Blocks come only when a test mines them, so the chain's own clock says nothing about delays here.
    PAYMENT_DELAY_NOTICE_MINUTES: process.env.PAYMENT_DELAY_NOTICE_MINUTES ?? '10080',
    ...(process.env.PRICE_SOURCE ? { PRICE_SOURCE: process.env.PRICE_SOURCE } : {}),
    ...(process.env.PRICE_API_URL ? { PRICE_API_URL: process.env.PRICE_API_URL } : {}),
  },
})
