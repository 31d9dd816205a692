import * as z from 'zod'
import type { ChainId } from './chains'
import { chainIdSchema } from './network-schemas'
import { adminKeyField } from './rpc'

// The admin's view of the chain providers (TRON HTTP APIs) and of the chain follower reading them.

export const providerNameSchema = z
  .string()
  .trim()
  .min(1, 'must name a provider')
  .max(40)
  .regex(/^[\w .:-]+$/, 'must be a provider name')

/** Which chain's providers (decision 037); default TRON. */
const chainField = { p_chain: chainIdSchema.optional() }

export const fetchProvidersInputSchema = z.object({ ...adminKeyField, ...chainField }).strict()
export const testProviderInputSchema = z
  .object({ ...adminKeyField, ...chainField, p_name: providerNameSchema })
  .strict()

/**
 * A provider's state as the operator's screens show it: its own (healthy, failing, limited, set
 * aside), or `chain_stopped` while its chain's follower has stopped (a reorganisation deeper than it
 * follows): nothing is recorded from the chain then, so its provider never reads "Healthy" (nor
 * "Failing, retried soon", the stop's own failure: retrying changes nothing until the operator acts).
 * A limit or a provider set aside still shows, being the operator's to know of too.
 */
export type ProviderShownState =
  | 'healthy'
  | 'cooling'
  | 'suspended'
  | 'exhausted'
  | 'set_aside'
  | 'chain_stopped'

/** The shown state of a provider in `state` on a chain whose follower is stopped or not. */
export function shownProviderState(
  state: Exclude<ProviderShownState, 'chain_stopped'>,
  chainStopped: boolean,
): ProviderShownState {
  return chainStopped && (state === 'healthy' || state === 'cooling') ? 'chain_stopped' : state
}

export interface ProviderAnswer {
  name: string
  /** Scheme and host only: a key in a path or query never reaches the browser. */
  host: string
  keys: number
  state: ProviderShownState
  /** 0–1; null before any request. */
  success_rate: number | null
  latency_ms: number | null
  last_error: string | null
  /** ISO time. */
  last_error_at: string | null
  suspended_until: string | null
  suspended_keys: number
  set_aside_reason: string | null
  requests_today: number
  per_day: number | null
  lag_blocks: number | null
  solid_head: number | null
}

export interface ProvidersAnswer {
  success: true
  /** The chain these figures are of. */
  chain: ChainId
  /** Every chain the shop takes, TRON first. */
  enabled_chains: ChainId[]
  providers: ProviderAnswer[]
  follower: { checkpoint: number | null; lag_seconds: number | null }
  /**
   * The sighting watcher (decision 024): idle (no open order), full (every block), slowed or paused to
   * leave the day's request budget to the follower; null when switched off.
   */
  sightings: {
    mode: 'idle' | 'full' | 'slowed' | 'paused'
    look_every_s: number | null
    requests_today: number
  } | null
}

export interface ProviderTestAnswer {
  success: true
  ok: boolean
  latency_ms: number
  solid_head: number | null
  error: string | null
}
