import type { ChainFamilyId, ChainId } from '../../shared/chains'
import type { BaseEnv, Env } from '../env'
import type { ChainAdapter } from './chain'
import { type ChainRegistry, createChainRegistry } from './chain-registry'
import type { EvmChainConfig } from './evm/evm-env'
import { evmFamily } from './evm/evm-family'
import type { ChainFamily, FamilyDeps } from './family'
import type { SolanaConfig } from './solana/solana-env'
import { solanaFamily } from './solana/solana-family'
import { type TronProviderConfig, tronEnvFields } from './tron/tron-env'
import { tronFamily } from './tron/tron-family'

// The family list (decision 050): every chain family this shop's code knows, each one object from
// its own folder. A new family is one folder and one line here. The order is the order the chains
// are offered and listed in (the first family's chains first).

export const FAMILIES: readonly ChainFamily[] = [tronFamily, evmFamily, solanaFamily]

export type ChainDeps = FamilyDeps

/** The families' fields of the shop's common settings schema (TRON's one-provider variables). */
export const familyEnvFields = { ...tronEnvFields }

/** What the families add to the shop's settings (Env), each family its own part. */
export type FamilySettings = {
  /** TRON_PROVIDER_1_* … in order; without them, the one provider of TRON_API_URL / TRON_API_KEY. */
  TRON_PROVIDERS: TronProviderConfig[]
  /** Every EVM chain's settings (EVM_<CHAIN>_*), enabled or not; see chains/evm/evm-env.ts. */
  EVM_CHAINS: EvmChainConfig[]
  /** Solana's settings (SOLANA_*), enabled or not; see chains/solana/solana-env.ts. */
  SOLANA: SolanaConfig
}

/** Every family's settings, in the list's order, with every bad variable's line. */
export function parseFamilySettings(
  source: Record<string, string | undefined>,
  base: BaseEnv,
): { settings: FamilySettings; errors: string[] } {
  const parts = FAMILIES.map((f) => f.parseSettings(source, base))
  return {
    settings: Object.assign({}, ...parts.map((p) => p.settings)) as FamilySettings,
    errors: parts.flatMap((p) => p.errors),
  }
}

/** The family object of a family id. */
export function family(id: ChainFamilyId): ChainFamily {
  const found = FAMILIES.find((f) => f.id === id)
  if (!found) throw new TypeError(`no chain family ${id}`)
  return found
}

/** The family object a chain belongs to. */
export function familyOf(chain: ChainId): ChainFamily {
  const found = FAMILIES.find((f) => f.chains.includes(chain))
  if (!found) throw new TypeError(`no chain family serves ${chain}`)
  return found
}

/**
 * The chains this shop takes, from its configuration: each family's enabled chains, in the list's
 * order. A family none of whose chains is enabled loads none of its adapter's code.
 */
export async function buildChains(env: Env, deps: ChainDeps): Promise<ChainAdapter[]> {
  return (await Promise.all(FAMILIES.map((f) => f.buildAdapters(env, deps)))).flat()
}

/**
 * The chains for an operator command run beside the shop (reconcile, doctor): the providers of the
 * environment, plain fetch, a provider set aside reported through onSetAside.
 */
export async function commandChains(
  env: Env,
  onSetAside: ChainDeps['onSetAside'] = () => {},
): Promise<ChainRegistry> {
  return createChainRegistry(await buildChains(env, { fetch, onSetAside, listPages: 50 }))
}
