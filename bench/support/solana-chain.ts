import { generateKeyPairSigner } from '@solana/kit'
import { serveRpc } from '../../tools/solana-standin/rpc'
import { createStandin } from '../../tools/solana-standin/standin'

// Solana for a benchmark's shop: the LiteSVM stand-in (the real SPL Token program, USDT and USDC at
// their mainnet mints) making a slot every 400 ms, with the settings that enable the family and a
// few Solana addresses for the pool.

export interface BenchSolana {
  env: Record<string, string>
  addresses: string[]
  stop(): Promise<void>
}

export async function startBenchSolana(): Promise<BenchSolana> {
  const standin = await createStandin({ slotMs: 400, finalizeDepth: 32 })
  const front = await serveRpc(standin)
  const addresses: string[] = []
  for (let i = 0; i < 50; i++) addresses.push((await generateKeyPairSigner()).address)
  return {
    env: { SOLANA_ENABLED: 'true', SOLANA_PROVIDER_1_URL: front.url },
    addresses,
    stop: async () => {
      standin.stop()
      await front.close()
    },
  }
}
