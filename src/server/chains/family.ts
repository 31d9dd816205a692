import type { ChainFamilyId, ChainId } from '../../shared/chains'
import type { BaseEnv, Env } from '../env'
import type { ChainAdapter, ChainToken } from './chain'
import type { ProviderPool } from './tron/tron-pool'

// A chain family as one object (decision 050): everything the rest of the server needs to know of a
// family, so that adding one is a folder under chains/ and a line in the family list (families.ts).
// Nothing outside the family's folder branches on which family a chain belongs to: it asks the
// family object of the chain (familyOf) or the chain's adapter in the registry.
//
// The shape fits families unlike the first two: a Solana family has base58 ed25519 addresses (case
// sensitive, no checksum of their own), case-sensitive base58 signatures as transaction ids, token
// mints instead of contracts, and a native coin (SOL) it need not accept.

/** What every family's adapters are built with, whatever the family. */
export interface FamilyDeps {
  /** TRON's provider pool (TRON_PROVIDER_<n>_*), shared with reconciliation and the operator's screens. */
  tron: ProviderPool
  /** Every provider request goes through it (the /metrics counters). */
  fetch: typeof fetch
  /** A provider was set aside (the operator is told). */
  onSetAside: (chain: string, provider: string, reason: string) => void
}

export interface ChainFamily {
  readonly id: ChainFamilyId
  /** The networks this family can serve, as stored on rows; which are enabled is the operator's choice. */
  readonly chains: readonly ChainId[]
  /** The accepted tokens of a chain of the family, from the token table (decimals never assumed). */
  tokens(chain: ChainId): readonly ChainToken[]
  /** The chain's native coin when the shop takes it (at a rate locked with the order); null when not. */
  nativeCoin(chain: ChainId): ChainToken | null
  /** The address in the family's normal form (the one stored and compared), or null when it is not one. */
  normalizeAddress(text: string): string | null
  /** The transaction id in the family's normal form (hex in lower case; a case-sensitive id as written). */
  normalizeTxHash(text: string): string | null
  /** A public explorer's page of a transaction on one of the family's chains. */
  explorerTxUrl(chain: ChainId, txId: string): string
  /**
   * The family's settings from the environment (its own variables; `base` the shop's parsed
   * common ones): the part of Env it adds, and one line per bad variable.
   */
  parseSettings(
    source: Record<string, string | undefined>,
    base: BaseEnv,
  ): { settings: object; errors: string[] }
  /** The first block a new database's follower reads on this chain (the operator's setting), if any. */
  startBlock(env: Env, chain: ChainId): number | undefined
  /**
   * The enabled chains of this family, each one adapter, from the parsed settings. A family loads
   * its adapter's code here, and only when one of its chains is enabled (decision 067).
   */
  buildAdapters(env: Env, deps: FamilyDeps): Promise<ChainAdapter[]>
}
