import { DAY_MS, hasBudget, isSetAside, type PoolState, rollDay, today } from './provider-state'
import type { ProviderHealth, RequestBudgetView } from './provider-types'

// What a failover pool shows of itself: the day's request budget across every key, each provider's
// health for the admin's screen, and the most advanced final head among them.

/** Counts one request of the sighting watcher against today (UTC). */
export function countSighting<C>(state: PoolState<C>) {
  rollSightings(state)
  state.sightings.requests += 1
}

/** Starts the sighting count afresh when the UTC day has turned; returns today. */
function rollSightings<C>(state: PoolState<C>): number {
  const day = today()
  if (state.sightings.day !== day) {
    state.sightings.day = day
    state.sightings.requests = 0
  }
  return day
}

export function requestBudget<C>(state: PoolState<C>): RequestBudgetView {
  const day = rollSightings(state)
  let perDay: number | null = 0
  let usedToday = 0
  for (const p of state.providers) {
    if (isSetAside(p)) continue
    for (const slot of p.slots) {
      rollDay(slot)
      usedToday += slot.requests
      if (perDay !== null) perDay = p.config.perDay === null ? null : perDay + p.config.perDay
    }
  }
  return {
    perDay,
    usedToday,
    sightingsToday: state.sightings.requests,
    countingSince: Math.max(state.startedAt, day * DAY_MS),
  }
}

export function bestHead<C>(state: PoolState<C>): number | null {
  let best: number | null = null
  for (const p of state.providers) {
    if (isSetAside(p) || p.solidHead === null) continue
    if (best === null || p.solidHead > best) best = p.solidHead
  }
  return best
}

export function health<C extends { pausedUntil(): number }>(state: PoolState<C>): ProviderHealth[] {
  const now = Date.now()
  const best = bestHead(state)
  return state.providers.map((p) => {
    for (const s of p.slots) rollDay(s)
    const pauses = p.slots.map((s) => s.client.pausedUntil())
    const suspendedUntil = pauses.every((t) => t > now) ? Math.min(...pauses) : null
    const exhausted = p.slots.every((s) => !hasBudget(p, s))
    const ok = p.outcomes.filter(Boolean).length
    return {
      name: p.config.name,
      url: p.config.url,
      keys: p.config.keys.length,
      state: isSetAside(p)
        ? 'set_aside'
        : exhausted
          ? 'exhausted'
          : suspendedUntil !== null
            ? 'suspended'
            : p.coolingUntil > now
              ? 'cooling'
              : 'healthy',
      successRate: p.outcomes.length === 0 ? null : ok / p.outcomes.length,
      latencyMs: p.latencyMs,
      lastError: p.lastError,
      suspendedUntil,
      suspendedKeys: pauses.filter((t) => t > now).length,
      setAside: isSetAside(p) ? p.setAside : null,
      requestsToday: p.slots.reduce((n, s) => n + s.requests, 0),
      bytesToday: p.slots.reduce((n, s) => n + s.bytes, 0),
      perDay: p.config.perDay === null ? null : p.config.perDay * p.slots.length,
      solidHead: p.solidHead,
      lagBlocks: p.solidHead === null || best === null ? null : Math.max(0, best - p.solidHead),
    }
  })
}
