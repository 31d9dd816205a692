import type { ChainFamilyId, ChainId } from './chains'
import type { ProviderShownState } from './providers'

// secure_fetch_chains: the admin's Chain tab, one entry per enabled chain.

export interface ChainProviderSummary {
  name: string
  host: string
  state: ProviderShownState
  requests_today: number
  per_day: number | null
  lag_blocks: number | null
  last_error: string | null
}

export interface ChainOverview {
  chain: ChainId
  family: ChainFamilyId
  /** Blocks on top of a transfer before it pays; null: the chain says when (TRON). */
  confirmations: number | null
  /** The newest final block the providers report; null before any answered. */
  final_head: number | null
  /** The last block the shop recorded (its checkpoint); null before the first. */
  recorded: number | null
  /** Final blocks not recorded yet, and how old the last recorded block is (s). */
  lag_blocks: number | null
  lag_seconds: number | null
  requests_today: number
  /** The day's limit over every provider's keys; null when one has none. */
  per_day: number | null
  /** Since when every provider has failed (ISO); null while one answers. */
  failing_since: string | null
  /**
   * The chain's follower stopped: a final block does not follow the block the shop recorded last
   * (a reorganisation deeper than the depth). Nothing is recorded from the chain until the operator
   * acts; null while it follows.
   */
  halted: { reason: string; since: string } | null
  providers: ChainProviderSummary[]
}

export interface ChainsAnswer {
  success: true
  chains: ChainOverview[]
}
