import { solanaFamily } from '../chains/solana/solana-family'
import type { Env } from '../env'
import type { ChainAdapter } from './chain'
import { type ChainRegistry, createChainRegistry } from './chain-registry'
import { buildEvmAdapters } from './evm/evm-family'
import { createTronChain } from './tron/tron-chain'
import { createProviderPool, type ProviderPool } from './tron/tron-pool'

// The chains this shop takes, from its configuration (decision 037): TRON always, through the TRON
// provider pool app.ts builds; each other family adds its enabled chains here.

export interface ChainDeps {
  /** TRON's provider pool (TRON_PROVIDER_<n>_*), shared with reconciliation and the operator's screens. */
  tron: ProviderPool
  /** Every provider request goes through it (the /metrics counters). */
  fetch: typeof fetch
  /** A provider was set aside (the operator is told). */
  onSetAside: (chain: string, provider: string, reason: string) => void
}

export function buildChains(env: Env, deps: ChainDeps): ChainAdapter[] {
  return [
    createTronChain({ pool: deps.tron, blockIntervalMs: env.CHAIN_BLOCK_MS }),
    ...buildEvmAdapters(env.EVM_CHAINS, { fetch: deps.fetch, onSetAside: deps.onSetAside }),
    ...solanaFamily.adapters(env.SOLANA, {
      fetch: deps.fetch,
      onSetAside: (provider, reason) => deps.onSetAside('solana', provider, reason),
    }),
  ]
}

/**
 * The chains for an operator command run beside the shop (reconcile, doctor): the providers of the
 * environment, plain fetch, a provider set aside reported through onSetAside.
 */
export function commandChains(env: Env, onSetAside: ChainDeps['onSetAside'] = () => {}): ChainRegistry {
  return createChainRegistry(
    buildChains(env, {
      tron: createProviderPool({
        providers: env.TRON_PROVIDERS,
        usdtContract: env.USDT_CONTRACT,
        maxPages: 50,
      }),
      fetch,
      onSetAside,
    }),
  )
}
