import type { ChainOverview, ChainsAnswer } from '../../shared/chain-overview'
import { shownProviderState } from '../../shared/providers'
import { adminOnlyPayloadSchema } from '../../shared/rpc'
import type { ChainAdapter } from '../chains/chain'
import { readFollowerStatus } from '../chains/chain-follower'
import type { ChainRegistry } from '../chains/chain-registry'
import type { Db } from '../db/client'
import { defineRpc } from '../rpc'

// The admin's Chain tab: every enabled chain with its providers, the final head they report, how
// far the shop has recorded, the lag and the day's requests. Each chain follows on its own, so
// each is shown on its own.

const hostOf = (url: string) => {
  const u = new URL(url)
  return `${u.protocol}//${u.host}`
}

export async function chainOverview(db: Db, adapter: ChainAdapter, now = Date.now()): Promise<ChainOverview> {
  const status = await readFollowerStatus(db, adapter.chain)
  const health = adapter.providers.health()
  const heads = health.flatMap((h) => (h.solidHead === null ? [] : [h.solidHead]))
  const reported = heads.length > 0 ? Math.max(...heads) : null
  const finalHead = reported ?? status.solidHead
  const budget = adapter.providers.requestBudget()
  const failing = adapter.providers.failingSince()
  return {
    chain: adapter.chain,
    family: adapter.family,
    confirmations: adapter.confirmation.kind === 'depth' ? adapter.confirmation.blocks : null,
    final_head: finalHead,
    recorded: status.checkpointBlock,
    lag_blocks:
      finalHead === null || status.checkpointBlock === null
        ? null
        : Math.max(0, finalHead - status.checkpointBlock),
    lag_seconds: status.checkpointTime ? Math.max(0, Math.round((now - status.checkpointTime) / 1000)) : null,
    requests_today: budget.usedToday,
    per_day: budget.perDay,
    failing_since: failing ? new Date(failing).toISOString() : null,
    halted: status.halted && { reason: status.halted.reason, since: status.halted.since.toISOString() },
    providers: health.map((h) => ({
      name: h.name,
      host: hostOf(h.url),
      state: shownProviderState(h.state, status.halted !== null),
      requests_today: h.requestsToday,
      per_day: h.perDay,
      lag_blocks: h.lagBlocks,
      last_error: h.lastError?.message ?? null,
    })),
  }
}

export function chainsRpcs(db: Db, chains: ChainRegistry) {
  return [
    defineRpc({
      name: 'secure_fetch_chains',
      input: adminOnlyPayloadSchema,
      admin: true,
      handler: async (): Promise<ChainsAnswer> => ({
        success: true,
        chains: await Promise.all(chains.enabled().map((c) => chainOverview(db, c))),
      }),
    }),
  ]
}
