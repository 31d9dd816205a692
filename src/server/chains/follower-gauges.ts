import type { Db } from '../db/client'
import { METRIC_PREFIX, type Metrics } from '../metrics/metrics'
import { readFollowerStatus } from './chain-follower'
import type { ChainRegistry } from './chain-registry'

// /metrics: how far each chain's follower is, read from follower_state at scrape time (so every
// process of a PostgreSQL deployment reports the same figures).

export function registerFollowerGauges(metrics: Metrics, db: Db, chains: ChainRegistry): void {
  const name = (suffix: string) => `${METRIC_PREFIX}${suffix}`
  const ageOf = (checkpointTime: number | null) =>
    checkpointTime === null ? Number.NaN : Math.max(0, (Date.now() - checkpointTime) / 1000)
  // The first family's chain (TRON) keeps its first names: operators' alert rules name them (decision 032).
  const first = () => chains.enabled()[0]?.chain
  const firstStatus = async () => {
    const chain = first()
    return chain ? readFollowerStatus(db, chain) : null
  }
  metrics.gauge(
    name('scanner_lag_blocks'),
    'Solidified blocks the chain follower has not read yet (NaN until the head is known)',
    async () => (await firstStatus())?.lagBlocks ?? Number.NaN,
  )
  metrics.gauge(
    name('scanner_checkpoint_age_seconds'),
    'Wall-clock time since the block time of the last block the chain follower recorded',
    async () => ageOf((await firstStatus())?.checkpointTime ?? null),
  )
  // Every enabled chain's, one series per chain (decision 037).
  const perChain = (value: (s: Awaited<ReturnType<typeof readFollowerStatus>>) => number) => async () =>
    Promise.all(
      chains
        .enabled()
        .map(async (c) => ({ label: c.chain, value: value(await readFollowerStatus(db, c.chain)) })),
    )
  metrics.labeledGauge(
    name('follower_lag_blocks'),
    "Final blocks the chain's follower has not read yet (NaN until the head is known)",
    'chain',
    perChain((s) => s.lagBlocks ?? Number.NaN),
  )
  metrics.labeledGauge(
    name('follower_checkpoint_age_seconds'),
    "Wall-clock time since the block time of the last block the chain's follower recorded",
    'chain',
    perChain((s) => ageOf(s.checkpointTime)),
  )
}
