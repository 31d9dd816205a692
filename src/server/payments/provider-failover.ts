import type { ChainError } from './chain'
import type {
  Answer,
  AnswerProblem,
  FailoverOptions,
  FailoverPool,
  KeyClient,
  PoolError,
  ProviderConfig,
  ProviderHandle,
  ProviderHealth,
  RequestBudgetView,
} from './provider-types'

export type {
  AnswerProblem,
  FailoverOptions,
  FailoverPool,
  KeyClient,
  PoolError,
  ProviderConfig,
  ProviderHandle,
  ProviderHealth,
  ProviderTest,
  RequestBudgetView,
} from './provider-types'

// Several providers of one chain behind one reader, whatever the chain speaks (TRON's HTTP API,
// EVM JSON-RPC). Each read goes to the first provider, in the operator's order, that is healthy (not
// cooling down after a fault, not set aside) and has a key with budget left (not suspended by a rate
// limit, under its daily limit); a fault moves the read to the next provider at once. Keys of one
// provider take turns. A family's pool (tron/tron-pool.ts) says what is wrong with an answer; this
// file decides who is asked and keeps each provider's health and the day's counts.

const OUTCOME_WINDOW = 50
const DAY_MS = 86_400_000

interface Slot<C> {
  key: string | null
  client: C
  day: number
  requests: number
  bytes: number
}

interface Provider<C> extends ProviderHandle {
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

type Choice<C> = { provider: Provider<C>; slot: Slot<C> }

export function poolError(
  kind: PoolError['kind'],
  message: string,
  extra: Partial<ChainError> = {},
): PoolError {
  return { status: 'error', kind, message, ...extra } as PoolError
}

export function createFailoverPool<C extends KeyClient>(options: FailoverOptions<C>): FailoverPool<C> {
  if (options.providers.length === 0) throw new TypeError('at least one provider is needed')
  const coolingBaseMs = options.coolingBaseMs ?? 1000
  const maxCoolingMs = options.maxCoolingMs ?? 30_000
  const setAsideMs = options.setAsideMs ?? 10 * 60_000
  const innerFetch = options.fetch ?? fetch
  let lastSuccessAt = Date.now()
  let failingSince: number | null = null
  const startedAt = Date.now()
  /** The sighting watcher's requests today (UTC): they share every key's budget with the follower's. */
  const sightings = { day: Math.floor(Date.now() / DAY_MS), requests: 0 }

  const today = () => Math.floor(Date.now() / DAY_MS)
  const rollDay = (slot: Slot<C>) => {
    if (slot.day !== today()) {
      slot.day = today()
      slot.requests = 0
      slot.bytes = 0
    }
  }

  function countingFetch(slot: Slot<C>): typeof fetch {
    return async (input, init) => {
      rollDay(slot)
      slot.requests += 1
      const res = await innerFetch(input, init)
      const body = await res.arrayBuffer()
      slot.bytes += body.byteLength
      return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers })
    }
  }

  const providers: Provider<C>[] = options.providers.map((config) => {
    const keys: (string | null)[] = config.keys.length > 0 ? config.keys : [null]
    const slots = keys.map((key) => {
      const slot = { key, day: today(), requests: 0, bytes: 0 } as Slot<C>
      slot.client = options.connect(config, key, countingFetch(slot))
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

  const hasBudget = (p: Provider<C>, slot: Slot<C>) => {
    rollDay(slot)
    return p.config.perDay === null || slot.requests < p.config.perDay
  }
  const isSetAside = (p: Provider<C>) => p.setAside !== null && p.setAside.until > Date.now()

  /** The next usable key of a provider, in turn (peek: without taking the turn); null when every key is suspended or spent. */
  function slotOf(p: Provider<C>, peek = false): Slot<C> | null {
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
  function choose(tried: Set<Provider<C>>, peek = false): Choice<C> | null {
    const open = providers.filter((p) => !tried.has(p) && !isSetAside(p))
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

  function remember(p: Provider<C>, ok: boolean) {
    p.outcomes.push(ok)
    if (p.outcomes.length > OUTCOME_WINDOW) p.outcomes.shift()
  }

  function succeeded(p: Provider<C>, ms: number) {
    remember(p, true)
    p.consecutiveFaults = 0
    p.coolingUntil = 0
    p.latencyMs = p.latencyMs === null ? ms : Math.round(p.latencyMs * 0.8 + ms * 0.2)
    lastSuccessAt = Date.now()
    failingSince = null
  }

  /** A provider that did not answer in time is left alone longer: each read it gets costs a whole timeout. */
  function faulted(p: Provider<C>, message: string, kind?: ChainError['kind']) {
    remember(p, false)
    p.consecutiveFaults += 1
    const base = kind === 'timeout' ? coolingBaseMs * 4 : coolingBaseMs
    p.coolingUntil = Date.now() + Math.min(maxCoolingMs, base * 2 ** Math.min(p.consecutiveFaults - 1, 16))
    p.lastError = { message: message.slice(0, 300), at: Date.now() }
  }

  function sawHead(handle: ProviderHandle, number: number) {
    const p = handle as Provider<C>
    if (p.solidHead === null || number > p.solidHead) p.solidHead = number
    p.headAt = Date.now()
  }

  function bestHead(): number | null {
    let best: number | null = null
    for (const p of providers) {
      if (isSetAside(p) || p.solidHead === null) continue
      if (best === null || p.solidHead > best) best = p.solidHead
    }
    return best
  }

  function countSighting() {
    const day = today()
    if (sightings.day !== day) {
      sightings.day = day
      sightings.requests = 0
    }
    sightings.requests += 1
  }

  function unavailable(): PoolError {
    const now = Date.now()
    const open = providers.filter((p) => !isSetAside(p))
    const pauses = open.flatMap((p) => p.slots.map((s) => s.client.pausedUntil())).filter((t) => t > now)
    const allPaused = open.length > 0 && open.every((p) => p.slots.every((s) => s.client.pausedUntil() > now))
    if (allPaused) {
      return poolError('rate_limited', 'every provider is holding back after a rate limit', {
        retryAfterMs: Math.max(0, Math.min(...pauses) - now),
      })
    }
    return poolError(
      'network',
      'no provider is available (set aside, suspended or out of requests for today)',
    )
  }

  async function route<T, E extends ChainError>(
    call: (client: C, p: ProviderHandle) => Promise<Answer<T> | E>,
    check?: (answer: Answer<T>, p: ProviderHandle) => AnswerProblem,
    opts: { signal?: AbortSignal; lane?: 'sightings' } = {},
  ): Promise<Answer<T> | E | PoolError> {
    const tried = new Set<Provider<C>>()
    const disagreeing: { provider: Provider<C>; reason: string }[] = []
    const doubted: { provider: Provider<C>; reason: string; answer: Answer<T>; ms: number }[] = []
    let last: E | PoolError | null = null
    for (;;) {
      const pick = choose(tried)
      if (!pick) break
      const { provider } = pick
      tried.add(provider)
      const started = Date.now()
      if (opts.lane === 'sightings') countSighting()
      const res = await call(pick.slot.client, provider)
      if (res.status === 'error') {
        if (opts.signal?.aborted) return res
        faulted(provider, res.message, res.kind)
        last = res
        continue
      }
      const problem = check?.(res, provider) ?? null
      if (problem?.doubtful) {
        doubted.push({ provider, reason: problem.fault, answer: res, ms: Date.now() - started })
        continue
      }
      if (problem) {
        faulted(provider, problem.fault)
        if (problem.disagrees) disagreeing.push({ provider, reason: problem.fault })
        last = poolError('malformed', `${provider.config.name}: ${problem.fault}`)
        continue
      }
      succeeded(provider, Date.now() - started)
      for (const d of doubted) faulted(d.provider, d.reason)
      for (const d of disagreeing) {
        d.provider.setAside = { reason: d.reason, until: Date.now() + setAsideMs }
        options.onSetAside?.(d.provider.config.name, d.reason)
      }
      return res
    }
    const standing = doubted[0]
    if (standing) {
      for (const d of doubted) succeeded(d.provider, d.ms)
      return standing.answer
    }
    if (failingSince === null) failingSince = Math.max(lastSuccessAt, Date.now() - 1)
    return last ?? unavailable()
  }

  function requestBudget(): RequestBudgetView {
    const day = today()
    if (sightings.day !== day) {
      sightings.day = day
      sightings.requests = 0
    }
    let perDay: number | null = 0
    let usedToday = 0
    for (const p of providers) {
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
      sightingsToday: sightings.requests,
      countingSince: Math.max(startedAt, day * DAY_MS),
    }
  }

  function health(): ProviderHealth[] {
    const now = Date.now()
    const best = bestHead()
    return providers.map((p) => {
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

  return {
    route,
    sawHead,
    bestHead,
    health,
    requestBudget,
    failingSince: () => failingSince,

    pausedUntil() {
      if (choose(new Set(), true) !== null) return 0
      const e = unavailable()
      return e.retryAfterMs ? Date.now() + e.retryAfterMs : 0
    },

    async test(name) {
      const p = providers.find((q) => q.config.name === name)
      if (!p) return null
      const slot = p.slots[p.nextSlot % p.slots.length] as Slot<C>
      p.nextSlot = (p.nextSlot + 1) % p.slots.length
      const started = Date.now()
      const res = await options.probeHead(slot.client, true)
      const latencyMs = Date.now() - started
      if (res.status === 'error') {
        faulted(p, res.message, res.kind)
        return { ok: false, latencyMs, solidHead: null, error: res.message }
      }
      sawHead(p, res.number)
      succeeded(p, latencyMs)
      return { ok: true, latencyMs, solidHead: res.number, error: null }
    },

    async refreshHeads(maxAgeMs) {
      for (const p of providers) {
        if (isSetAside(p) || Date.now() - p.headAt < maxAgeMs) continue
        const slot = slotOf(p)
        if (!slot) continue
        const started = Date.now()
        const res = await options.probeHead(slot.client, false)
        if (res.status === 'error') faulted(p, res.message, res.kind)
        else {
          sawHead(p, res.number)
          succeeded(p, Date.now() - started)
        }
      }
    },
  }
}
