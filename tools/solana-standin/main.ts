import { serveRpc } from './rpc'
import { createStandin } from './standin'

// A local Solana cluster on the real SPL Token program for the demo and by hand:
//   npm run solana-standin                      JSON-RPC on 127.0.0.1:8899, a slot every 400 ms
//   SOLANA_STANDIN_PORT=… SOLANA_STANDIN_SLOT_MS=… SOLANA_STANDIN_FINALIZE_DEPTH=… SOLANA_STANDIN_FIRST_SLOT=…
// Test USDT and USDC live at their mainnet mint addresses; POST /control/mint gives any owner some.

const port = Number(process.env.SOLANA_STANDIN_PORT ?? 8899)
const standin = await createStandin({
  slotMs: Number(process.env.SOLANA_STANDIN_SLOT_MS ?? 400),
  finalizeDepth: Number(process.env.SOLANA_STANDIN_FINALIZE_DEPTH ?? 32),
  ...(process.env.SOLANA_STANDIN_FIRST_SLOT
    ? { firstSlot: Number(process.env.SOLANA_STANDIN_FIRST_SLOT) }
    : {}),
})
const front = await serveRpc(standin, port)
console.log(
  `solana stand-in: JSON-RPC at ${front.url} (USDT ${standin.mints.usdt}, USDC ${standin.mints.usdc})`,
)
const stop = async () => {
  standin.stop()
  await front.close()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
