import type { ChainError } from './chain'
import {
  choose,
  createPoolState,
  faulted,
  isSetAside,
  type PoolState,
  type Provider,
  type Slot,
  sawHead,
  slotOf,
  succeeded,
} from './provider-state'
import type {
  Answer,
  AnswerProblem,
  FailoverOptions,
  FailoverPool,
  KeyClient,
  PoolError,
  ProviderHandle,
  ProviderTest,
} from './provider-types'
import { bestHead, countSighting, health, requestBudget } from './provider-views'

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
// file decides who is asked; provider-state.ts keeps each provider's health and the day's counts, and
// provider-views.ts shows them.

export function poolError(
  kind: PoolError['kind'],
  message: string,
  extra: Partial<ChainError> = {},
): PoolError {
  return { status: 'error', kind, message, ...extra } as PoolError
}

export function createFailoverPool<C extends KeyClient>(options: FailoverOptions<C>): FailoverPool<C> {
  if (options.providers.length === 0) throw new TypeError('at least one provider is needed')
  const state = createPoolState(options)
  return {
    route: (call, check, opts) => route(state, options, call, check, opts),
    sawHead: (p, number) => sawHead(p as Provider<C>, number),
    bestHead: () => bestHead(state),
    health: () => health(state),
    requestBudget: () => requestBudget(state),
    failingSince: () => state.failingSince,

    pausedUntil() {
      if (choose(state, new Set(), true) !== null) return 0
      const e = unavailable(state)
      return e.retryAfterMs ? Date.now() + e.retryAfterMs : 0
    },
    test: (name) => testProvider(state, options, name),
    refreshHeads: (maxAgeMs) => refreshHeads(state, options, maxAgeMs),
  }
}

/** Why no provider can be asked: every key holding back after a rate limit, or none left at all. */
function unavailable<C extends KeyClient>(state: PoolState<C>): PoolError {
  const now = Date.now()
  const open = state.providers.filter((p) => !isSetAside(p))
  const pauses = open.flatMap((p) => p.slots.map((s) => s.client.pausedUntil())).filter((t) => t > now)
  const allPaused = open.length > 0 && open.every((p) => p.slots.every((s) => s.client.pausedUntil() > now))
  if (allPaused) {
    return poolError('rate_limited', 'every provider is holding back after a rate limit', {
      retryAfterMs: Math.max(0, Math.min(...pauses) - now),
    })
  }
  return poolError('network', 'no provider is available (set aside, suspended or out of requests for today)')
}

/**
 * Asks providers in turn until one answers well. A fault moves on at once; a doubtful answer is kept
 * in case nobody does better; an answer that disagrees with a later good one sets its provider aside.
 */
async function route<C extends KeyClient, T, E extends ChainError>(
  state: PoolState<C>,
  options: FailoverOptions<C>,
  call: (client: C, p: ProviderHandle) => Promise<Answer<T> | E>,
  check?: (answer: Answer<T>, p: ProviderHandle) => AnswerProblem,
  opts: { signal?: AbortSignal; lane?: 'sightings' } = {},
): Promise<Answer<T> | E | PoolError> {
  const tried = new Set<Provider<C>>()
  const disagreeing: { provider: Provider<C>; reason: string }[] = []
  const doubted: { provider: Provider<C>; reason: string; answer: Answer<T>; ms: number }[] = []
  let last: E | PoolError | null = null
  for (;;) {
    const pick = choose(state, tried)
    if (!pick) break
    const { provider } = pick
    tried.add(provider)
    const started = Date.now()
    if (opts.lane === 'sightings') countSighting(state)
    const res = await call(pick.slot.client, provider)
    if (res.status === 'error') {
      if (opts.signal?.aborted) return res
      faulted(state, provider, res.message, res.kind)
      last = res
      continue
    }
    const problem = check?.(res, provider) ?? null
    if (problem?.doubtful) {
      doubted.push({ provider, reason: problem.fault, answer: res, ms: Date.now() - started })
      continue
    }
    if (problem) {
      faulted(state, provider, problem.fault)
      if (problem.disagrees) disagreeing.push({ provider, reason: problem.fault })
      last = poolError('malformed', `${provider.config.name}: ${problem.fault}`)
      continue
    }
    succeeded(state, provider, Date.now() - started)
    for (const d of doubted) faulted(state, d.provider, d.reason)
    for (const d of disagreeing) {
      d.provider.setAside = { reason: d.reason, until: Date.now() + state.setAsideMs }
      options.onSetAside?.(d.provider.config.name, d.reason)
    }
    return res
  }
  const standing = doubted[0]
  if (standing) {
    for (const d of doubted) succeeded(state, d.provider, d.ms)
    return standing.answer
  }
  if (state.failingSince === null) state.failingSince = Math.max(state.lastSuccessAt, Date.now() - 1)
  return last ?? unavailable(state)
}

/** The admin's test of one provider: its next key, in turn, asked for the final head. */
async function testProvider<C extends KeyClient>(
  state: PoolState<C>,
  options: FailoverOptions<C>,
  name: string,
): Promise<ProviderTest | null> {
  const p = state.providers.find((q) => q.config.name === name)
  if (!p) return null
  const slot = p.slots[p.nextSlot % p.slots.length] as Slot<C>
  p.nextSlot = (p.nextSlot + 1) % p.slots.length
  const started = Date.now()
  const res = await options.probeHead(slot.client, true)
  const latencyMs = Date.now() - started
  if (res.status === 'error') {
    faulted(state, p, res.message, res.kind)
    return { ok: false, latencyMs, solidHead: null, error: res.message }
  }
  sawHead(p, res.number)
  succeeded(state, p, latencyMs)
  return { ok: true, latencyMs, solidHead: res.number, error: null }
}

/** Asks each provider not heard from within maxAgeMs for its final head. */
async function refreshHeads<C extends KeyClient>(
  state: PoolState<C>,
  options: FailoverOptions<C>,
  maxAgeMs: number,
) {
  for (const p of state.providers) {
    if (isSetAside(p) || Date.now() - p.headAt < maxAgeMs) continue
    const slot = slotOf(p)
    if (!slot) continue
    const started = Date.now()
    const res = await options.probeHead(slot.client, false)
    if (res.status === 'error') faulted(state, p, res.message, res.kind)
    else {
      sawHead(p, res.number)
      succeeded(state, p, Date.now() - started)
    }
  }
}
