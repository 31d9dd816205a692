import { type ChainFamilyId, type ChainId, firstChain } from '../../shared/chains'
import { chainNames } from '../../shared/networks'
import { AppError } from '../errors'
import type { ChainAdapter } from './chain'
import { FAMILIES } from './families'

// The enabled chains of this shop, built once at start (app.ts) from the configuration: TRON
// always, each EVM chain the operator enabled. Everything that runs per chain (a follower and a
// sighting watcher each, on its own loop and lease) and everything that looks a chain up by the id
// stored on a row (the buyer's hash, reconciliation, explorer links) goes through here.

export interface ChainRegistry {
  /** Enabled chains in the family list's order, then in the order they were registered. */
  enabled(): readonly ChainAdapter[]
  get(chain: ChainId): ChainAdapter | undefined
  /** The enabled chain, or a TypeError (a programming error: the id came from our own rows). */
  require(chain: ChainId): ChainAdapter
  /** The enabled chains of one family (an EVM address is watched on every enabled EVM chain). */
  ofFamily(family: ChainFamilyId): readonly ChainAdapter[]
}

export function createChainRegistry(adapters: readonly ChainAdapter[]): ChainRegistry {
  const byId = new Map<ChainId, ChainAdapter>()
  for (const adapter of adapters) {
    if (byId.has(adapter.chain)) throw new TypeError(`chain ${adapter.chain} registered twice`)
    byId.set(adapter.chain, adapter)
  }
  const rank = (a: ChainAdapter) => FAMILIES.findIndex((f) => f.id === a.family)
  const list = [...adapters].sort((a, b) => rank(a) - rank(b))
  return {
    enabled: () => list,
    get: (chain) => byId.get(chain),
    require(chain) {
      const adapter = byId.get(chain)
      if (!adapter) throw new TypeError(`chain ${chain} is not enabled`)
      return adapter
    },
    ofFamily: (family) => list.filter((a) => a.family === family),
  }
}

/**
 * The enabled chain an admin call names in `p_chain` (the first chain when it names none), or the one answer
 * for a chain the shop does not take: a 400 naming the field and the chain by its name.
 */
export function chainOfCall(chains: ChainRegistry, id: ChainId = firstChain): ChainAdapter {
  const adapter = chains.get(id)
  if (!adapter) {
    throw new AppError(
      'bad_request',
      `Invalid request: p_chain: the shop does not take payments on ${chainNames[id]}`,
    )
  }
  return adapter
}
