import type { ChainFamilyId, ChainId } from '../../shared/chains'
import type { BaseEnv, Env } from '../env'
import type { ChainAdapter, ChainToken } from './chain'
import type { FamilySettings } from './families'

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
  /** Every provider request goes through it (the /metrics counters). */
  fetch: typeof fetch
  /** A provider was set aside (the operator is told). */
  onSetAside: (chain: string, provider: string, reason: string) => void
  /**
   * Pages a provider's list call follows, for a family whose provider lists answer in pages (an
   * operator's command beside the shop reads further than the shop does); unset: the family's own.
   */
  listPages?: number
}

/** The family's own settings as the operator's advice names them (the self-check, the alerts). */
export interface ProviderSettingNames {
  /** Where a provider's API keys go, several separated by commas. */
  key: string
  /** The numbered list of providers, as the advice writes it (the <n> left for the operator). */
  providers: string
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
  /** The names of the family's provider settings, for the advice the operator reads. */
  readonly providerSettings: ProviderSettingNames
  /**
   * The providers in the family's settings that go without a key to a public host that rations
   * keyless clients hard (the self-check warns); a family without such hosts has none.
   */
  keylessProviders?(settings: FamilySettings): string[]
  /** The first block a new database's follower reads on this chain (the operator's setting), if any. */
  startBlock(env: Env, chain: ChainId): number | undefined
  /**
   * The enabled chains of this family, each one adapter, from the parsed settings. A family loads
   * its adapter's code here, and only when one of its chains is enabled (decision 067).
   */
  buildAdapters(env: Env, deps: FamilyDeps): Promise<ChainAdapter[]>
}
