import { backoffDelay } from '../lib/backoff'
import type { ChainError } from './chain'
import type { FailoverOptions, KeyClient, ProviderConfig, ProviderHandle } from './provider-types'

// The state a failover pool (provider-failover.ts) keeps of each provider: its keys and their counts
// for the day, its recent outcomes, whether it is cooling down after a fault or set aside, and the
// final head it last reported. The functions here pick the provider to ask and record how it did.

const OUTCOME_WINDOW = 50
export const DAY_MS = 86_400_000

export interface Slot<C> {
  key: string | null
  client: C
  day: number
  requests: number
  bytes: number
}

export interface Provider<C> extends ProviderHandle {
  config: ProviderConfig
  slots: Slot<C>[]
  nextSlot: number
  outcomes: boolean[]
  latencyMs: number | null
  lastError: { message: string; at: number } | null
  consecutiveFaults: number
  coolingUntil: number
  setAside: { reason: string; until: number } | null
  solidHead: number | null
  headAt: number
}

export type Choice<C> = { provider: Provider<C>; slot: Slot<C> }

/** One pool's providers and what it remembers across reads. */
export interface PoolState<C> {
  providers: Provider<C>[]
  coolingBaseMs: number
  maxCoolingMs: number
  setAsideMs: number
  lastSuccessAt: number
  failingSince: number | null
  startedAt: number
  /** The sighting watcher's requests today (UTC): they share every key's budget with the follower's. */
  sightings: { day: number; requests: number }
}

export const today = () => Math.floor(Date.now() / DAY_MS)

/** Starts a key's counts afresh when the UTC day has turned since its last read. */
export function rollDay<C>(slot: Slot<C>) {
  if (slot.day !== today()) {
    slot.day = today()
    slot.requests = 0
    slot.bytes = 0
  }
}

/** A fetch that counts each request and the bytes of its answer against the key's day. */
function countingFetch<C>(slot: Slot<C>, innerFetch: typeof fetch): typeof fetch {
  return async (input, init) => {
    rollDay(slot)
    slot.requests += 1
    const res = await innerFetch(input, init)
    const body = await res.arrayBuffer()
    slot.bytes += body.byteLength
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers })
  }
}

export function createPoolState<C extends KeyClient>(options: FailoverOptions<C>): PoolState<C> {
  const innerFetch = options.fetch ?? fetch
  const providers: Provider<C>[] = options.providers.map((config) => {
    const keys: (string | null)[] = config.keys.length > 0 ? config.keys : [null]
    const slots = keys.map((key) => {
      const slot = { key, day: today(), requests: 0, bytes: 0 } as Slot<C>
      slot.client = options.connect(config, key, countingFetch(slot, innerFetch))
      return slot
    })
    return {
      name: config.name,
      config,
      slots,
      nextSlot: 0,
      outcomes: [],
      latencyMs: null,
      lastError: null,
      consecutiveFaults: 0,
      coolingUntil: 0,
      setAside: null,
      solidHead: null,
      headAt: 0,
      freshAt: Date.now(),
    }
  })
  return {
    providers,
    coolingBaseMs: options.coolingBaseMs ?? 1000,
    maxCoolingMs: options.maxCoolingMs ?? 30_000,
    setAsideMs: options.setAsideMs ?? 10 * 60_000,
    lastSuccessAt: Date.now(),
    failingSince: null,
    startedAt: Date.now(),
    sightings: { day: today(), requests: 0 },
  }
}

export function hasBudget<C>(p: Provider<C>, slot: Slot<C>) {
  rollDay(slot)
  return p.config.perDay === null || slot.requests < p.config.perDay
}

export const isSetAside = <C>(p: Provider<C>) => p.setAside !== null && p.setAside.until > Date.now()

/** The next usable key of a provider, in turn (peek: without taking the turn); null when every key is suspended or spent. */
export function slotOf<C extends KeyClient>(p: Provider<C>, peek = false): Slot<C> | null {
  for (let i = 0; i < p.slots.length; i++) {
    const slot = p.slots[(p.nextSlot + i) % p.slots.length] as Slot<C>
    if (slot.client.pausedUntil() === 0 && hasBudget(p, slot)) {
      if (!peek) p.nextSlot = (p.nextSlot + i + 1) % p.slots.length
      return slot
    }
  }
  return null
}

/** Healthy providers in the operator's order, then those cooling down after a fault. */
export function choose<C extends KeyClient>(
  state: PoolState<C>,
  tried: Set<Provider<C>>,
  peek = false,
): Choice<C> | null {
  const open = state.providers.filter((p) => !tried.has(p) && !isSetAside(p))
  const now = Date.now()
  for (const p of [
    ...open.filter((q) => q.coolingUntil <= now),
    ...open.filter((q) => q.coolingUntil > now),
  ]) {
    const slot = slotOf(p, peek)
    if (slot) return { provider: p, slot }
  }
  return null
}

function remember<C>(p: Provider<C>, ok: boolean) {
  p.outcomes.push(ok)
  if (p.outcomes.length > OUTCOME_WINDOW) p.outcomes.shift()
}

export function succeeded<C>(state: PoolState<C>, p: Provider<C>, ms: number) {
  remember(p, true)
  p.consecutiveFaults = 0
  p.coolingUntil = 0
  p.latencyMs = p.latencyMs === null ? ms : Math.round(p.latencyMs * 0.8 + ms * 0.2)
  state.lastSuccessAt = Date.now()
  state.failingSince = null
}

/** A provider that did not answer in time is left alone longer: each read it gets costs a whole timeout. */
export function faulted<C>(state: PoolState<C>, p: Provider<C>, message: string, kind?: ChainError['kind']) {
  remember(p, false)
  p.consecutiveFaults += 1
  const base = kind === 'timeout' ? state.coolingBaseMs * 4 : state.coolingBaseMs
  p.coolingUntil = Date.now() + backoffDelay(p.consecutiveFaults, { baseMs: base, maxMs: state.maxCoolingMs })
  p.lastError = { message: message.slice(0, 300), at: Date.now() }
}

export function sawHead<C>(p: Provider<C>, number: number) {
  if (p.solidHead === null || number > p.solidHead) p.solidHead = number
  p.headAt = Date.now()
}
