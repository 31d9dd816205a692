import type { ChainId } from '../../shared/chains'
import {
  fetchProvidersInputSchema,
  type ProviderAnswer,
  type ProvidersAnswer,
  type ProviderTestAnswer,
  shownProviderState,
  testProviderInputSchema,
} from '../../shared/providers'
import { readFollowerStatus } from '../chains/chain-follower'
import { type ChainRegistry, chainOfCall } from '../chains/chain-registry'
import type { ProviderHealth } from '../chains/provider-failover'
import type { SightingWatcher } from '../chains/sighting-watcher'
import type { Db } from '../db/client'
import { AppError } from '../errors'
import { defineRpc } from '../rpc'
import { followerLagSeconds } from './payments-health'

const iso = (ms: number | null | undefined) => (ms ? new Date(ms).toISOString() : null)

function answerOf(h: ProviderHealth, chainStopped: boolean): ProviderAnswer {
  const url = new URL(h.url)
  return {
    name: h.name,
    host: `${url.protocol}//${url.host}`,
    keys: h.keys,
    state: shownProviderState(h.state, chainStopped),
    success_rate: h.successRate,
    latency_ms: h.latencyMs,
    last_error: h.lastError?.message ?? null,
    last_error_at: iso(h.lastError?.at),
    suspended_until: iso(h.suspendedUntil),
    suspended_keys: h.suspendedKeys,
    set_aside_reason: h.setAside?.reason ?? null,
    requests_today: h.requestsToday,
    per_day: h.perDay,
    lag_blocks: h.lagBlocks,
    solid_head: h.solidHead,
  }
}

/** The admin's chain page: every provider's health, and a test of one, for each enabled chain. */
export function providersRpcs(db: Db, chains: ChainRegistry, watchers: readonly SightingWatcher[] = []) {
  const chainOf = (id?: ChainId) => chainOfCall(chains, id)
  return [
    defineRpc({
      name: 'secure_fetch_providers',
      input: fetchProvidersInputSchema,
      admin: true,
      handler: async (input): Promise<ProvidersAnswer> => {
        const chain = chainOf(input.p_chain)
        const pool = chain.providers
        const sightings = watchers.find((w) => w.chain === chain.chain) ?? null
        const status = await readFollowerStatus(db, chain.chain)
        return {
          success: true,
          chain: chain.chain,
          enabled_chains: chains.enabled().map((c) => c.chain),
          providers: pool.health().map((h) => answerOf(h, status.halted !== null)),
          follower: {
            checkpoint: status.checkpointBlock,
            lag_seconds: await followerLagSeconds(db, chain.chain),
          },
          sightings: sightings
            ? {
                mode: sightings.status().mode,
                look_every_s: ((ms) => (ms === null ? null : ms / 1000))(sightings.status().lookEveryMs),
                requests_today: pool.requestBudget().sightingsToday,
              }
            : null,
        }
      },
    }),
    defineRpc({
      name: 'secure_test_provider',
      input: testProviderInputSchema,
      admin: true,
      handler: async (input): Promise<ProviderTestAnswer> => {
        const result = await chainOf(input.p_chain).providers.test(input.p_name)
        if (!result) throw new AppError('not_found', `No provider named ${input.p_name}`)
        return {
          success: true,
          ok: result.ok,
          latency_ms: result.latencyMs,
          solid_head: result.solidHead,
          error: result.error,
        }
      },
    }),
  ]
}
