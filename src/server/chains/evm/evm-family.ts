import { normalizeEvmAddress, normalizeEvmTxHash } from '../../../shared/evm-address'
import type { ChainAdapter } from '../chain'
import type { ChainFamily } from '../family'
import { EVM_CHAIN_KEYS, type EvmChainKey, evmChain } from './chains'
import type { EvmAdapterOptions } from './evm-adapter'
import { type EvmChainConfig, parseEvmEnv } from './evm-env'

// The EVM family's part of the chain registry: an adapter for each chain the operator enabled, in
// the table's order. Each has its own providers, follower and sighting watcher, so one chain's
// outage never holds up another's payments. The adapter's code (viem's client, the readers) is
// loaded only when a chain is enabled: a shop without EVM chains never holds it (decision 067).

export async function buildEvmAdapters(
  chains: readonly EvmChainConfig[],
  opts: { onSetAside?: (chain: string, provider: string, reason: string) => void } & Omit<
    EvmAdapterOptions,
    'onSetAside'
  > = {},
): Promise<ChainAdapter[]> {
  const enabled = chains.filter((c) => c.enabled)
  if (enabled.length === 0) return []
  const { createEvmAdapter } = await import('./evm-adapter')
  return enabled.map((c) =>
    createEvmAdapter(c, {
      ...opts,
      onSetAside: (provider, reason) => opts.onSetAside?.(c.spec.key, provider, reason),
    }),
  )
}

/** The EVM family as one object (decision 050): every chain of evm/chains.ts through the same code. */
export const evmFamily: ChainFamily = {
  id: 'evm',
  chains: EVM_CHAIN_KEYS,
  tokens: (chain) => evmChain(chain as EvmChainKey).tokens.map((t) => ({ ...t, kind: 'stable' as const })),
  // The shop takes stablecoins only on EVM chains; their native coins (ETH, BNB, POL) are not offered.
  nativeCoin: () => null,
  normalizeAddress: normalizeEvmAddress,
  normalizeTxHash: normalizeEvmTxHash,
  explorerTxUrl: (chain, txId) => evmChain(chain as EvmChainKey).explorerTxUrl(txId),
  parseSettings: (source) => {
    const { chains, errors } = parseEvmEnv(source)
    return { settings: { EVM_CHAINS: chains }, errors }
  },
  providerSettings: { key: 'EVM_<CHAIN>_PROVIDER_<n>_KEYS', providers: 'EVM_<CHAIN>_PROVIDER_<n>_*' },
  startBlock: (env, chain) => env.EVM_CHAINS.find((c) => c.spec.key === chain)?.startBlock ?? undefined,
  buildAdapters: (env, deps) =>
    buildEvmAdapters(env.EVM_CHAINS, { fetch: deps.fetch, onSetAside: deps.onSetAside }),
}
