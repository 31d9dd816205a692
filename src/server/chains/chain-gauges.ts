import type { Db } from '../db/client'
import { METRIC_PREFIX, type Metrics } from '../metrics/metrics'
import type { ChainProvidersView } from './chain'
import { readFollowerStatus } from './chain-follower'
import type { ChainRegistry } from './chain-registry'
import type { ProviderHealth } from './provider-failover'
import type { SightingMode, SightingWatcher } from './sighting-watcher'

// /metrics for every enabled chain alike (decision 052): each chain's providers (health, requests,
// lag), its sighting watcher's mode, labelled by chain. The first chain's unlabelled and
// provider-only series stay as decision 032 named them, beside these.

const SIGHTING_MODES: Record<SightingMode, number> = { idle: 0, full: 1, slowed: 2, paused: 3 }

export function registerChainGauges(
  metrics: Metrics,
  db: Db,
  chains: ChainRegistry,
  watchers: () => readonly SightingWatcher[],
): void {
  const name = (suffix: string) => `${METRIC_PREFIX}chain_${suffix}`
  /** One sample per provider of every enabled chain; a stopped chain's (halted follower) read as not healthy. */
  const providers = async () =>
    Promise.all(
      chains.enabled().map(async (c) => ({
        chain: c.chain,
        halted: (await readFollowerStatus(db, c.chain)).halted !== null,
        health: c.providers.health(),
      })),
    )
  const each = (value: (h: ProviderHealth, halted: boolean) => number | null) => async () =>
    (await providers()).flatMap(({ chain, halted, health }) =>
      health.map((h) => ({ labels: { chain, provider: h.name }, value: value(h, halted) ?? Number.NaN })),
    )
  const gauge = (
    suffix: string,
    help: string,
    value: (h: ProviderHealth, halted: boolean) => number | null,
  ) => metrics.labelsGauge(name(`provider_${suffix}`), help, ['chain', 'provider'], each(value))
  gauge(
    'healthy',
    "1 when reads go to the provider; 0 while it cools down, is suspended, spent or set aside, or its chain's follower is stopped",
    (h, halted) => (h.state === 'healthy' && !halted ? 1 : 0),
  )
  gauge('requests_today', 'Requests sent to the provider today (UTC), all keys', (h) => h.requestsToday)
  gauge('success_ratio', 'Share of the recent requests to the provider that succeeded', (h) => h.successRate)
  gauge('latency_ms', "Moving average of the provider's answer time, ms", (h) => h.latencyMs)
  gauge(
    'lag_blocks',
    "Blocks the provider's final head is behind the chain's most advanced provider",
    (h) => h.lagBlocks,
  )
  metrics.labeledGauge(
    name('sightings_mode'),
    "The chain's sighting watcher: 0 idle (no open order), 1 every head block, 2 slowed by the request budget, 3 paused for the follower",
    'chain',
    () => watchers().map((w) => ({ label: w.chain, value: SIGHTING_MODES[w.status().mode] })),
  )
}

/** /metrics: the first chain's providers, one series each, without a chain label (decision 032). */
export function registerProviderGauges(metrics: Metrics, pool: Pick<ChainProvidersView, 'health'>): void {
  const each = (value: (h: ProviderHealth) => number | null) => () =>
    pool.health().map((h) => ({ label: h.name, value: value(h) ?? Number.NaN }))
  const gauge = (suffix: string, help: string, value: (h: ProviderHealth) => number | null) =>
    metrics.labeledGauge(`${METRIC_PREFIX}provider_${suffix}`, help, 'provider', each(value))
  gauge('requests_today', 'Requests sent to the chain provider today (UTC), all keys', (h) => h.requestsToday)
  gauge(
    'requests_per_day_limit',
    "The provider's daily request limit over all keys (NaN: none)",
    (h) => h.perDay,
  )
  gauge('bytes_today', 'Response bytes received from the provider today (UTC)', (h) => h.bytesToday)
  gauge('success_ratio', 'Share of the recent requests to the provider that succeeded', (h) => h.successRate)
  gauge('latency_ms', "Moving average of the provider's answer time, ms", (h) => h.latencyMs)
  gauge(
    'lag_blocks',
    "Blocks the provider's solidified head is behind the most advanced provider",
    (h) => h.lagBlocks,
  )
  gauge(
    'healthy',
    '1 when reads go to the provider, 0 while it cools down, is suspended, spent or set aside',
    (h) => (h.state === 'healthy' ? 1 : 0),
  )
  gauge('set_aside', '1 while the provider is set aside because its blocks disagree with ours', (h) =>
    h.setAside ? 1 : 0,
  )
}
