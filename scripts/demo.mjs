// `npm run demo`: the built shop pointed at a local devchain (the TronGrid stand-in), so a new user
// can buy end to end on one machine. Pay with `npm run pay -- <address> <amount>` in another terminal.
// The demo keeps its own database under ./data/demo; your real shop's data is not touched.
import { join } from 'node:path'
import { startShopWithDevchain } from './lib/shop-with-devchain.mjs'

const port = process.env.PORT ?? '3000'
const devchainUrl = await startShopWithDevchain({
  devchainPort: process.env.DEVCHAIN_PORT ?? '9090',
  shopEnv: { PORT: port, DATA_DIR: process.env.DEMO_DATA_DIR ?? join('data', 'demo'), DATABASE_URL: '' },
  // A block a second, solidified five blocks later: a payment shows as paid within a few seconds
  // (mainnet: 3 s blocks, solidified about a minute later).
  devchainEnv: {
    DEVCHAIN_BLOCK_MS: process.env.DEVCHAIN_BLOCK_MS ?? '1000',
    DEVCHAIN_SOLIDIFY_LAG: process.env.DEVCHAIN_SOLIDIFY_LAG ?? '5',
  },
})

setTimeout(() => {
  console.log(`
  Demo shop: http://localhost:${port}  (chain: devchain on ${devchainUrl})
  Buy something, then pay the amount shown on the payment page from another terminal:
    npm run pay -- <wallet address> <amount>          # USDT-TRC20
    npm run pay -- <wallet address> <amount> TRX      # TRX
`)
}, 1500)
