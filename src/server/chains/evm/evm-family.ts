import type { ChainAdapter } from '../chain'
import { createEvmAdapter, type EvmAdapterOptions } from './evm-adapter'
import type { EvmChainConfig } from './evm-env'

// The EVM family's part of the chain registry: an adapter for each chain the operator enabled, in
// the table's order. Each has its own providers, follower and sighting watcher, so one chain's
// outage never holds up another's payments.

export function buildEvmAdapters(
  chains: readonly EvmChainConfig[],
  opts: { onSetAside?: (chain: string, provider: string, reason: string) => void } & Omit<
    EvmAdapterOptions,
    'onSetAside'
  > = {},
): ChainAdapter[] {
  return chains
    .filter((c) => c.enabled)
    .map((c) =>
      createEvmAdapter(c, {
        ...opts,
        onSetAside: (provider, reason) => opts.onSetAside?.(c.spec.key, provider, reason),
      }),
    )
}
