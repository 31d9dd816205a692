import type { TronProviderConfig } from '../env'
import { METRIC_PREFIX, type Metrics } from '../metrics/metrics'
import type { ChainReadOptions } from './tron-blocks'
import { createTronClient, type TronClient, type TronError, type TronResult } from './tron-client'
import { tronError } from './tron-http'

// Several TRON HTTP API providers behind the one TronClient interface the follower, the buyer's
// hash check and reconciliation use. Each read goes to the first provider, in the operator's
// order, that is healthy (not cooling down after a fault, not set aside) and has a key with budget
// left (not suspended by a rate limit, under its daily limit); a fault moves the read to the next
// provider at once. Keys of one provider take turns. A provider whose blocks do not follow the
// follower's checkpoint, while another provider's do, is set aside: nothing it says is used.

export interface ProviderHealth {
  name: string
  url: string
  keys: number
  state: 'healthy' | 'cooling' | 'suspended' | 'exhausted' | 'set_aside'
  /** Share of the last requests that succeeded; null before any. */
  successRate: number | null
  /** Moving average of answered reads, ms; null before any. */
  latencyMs: number | null
  lastError: { message: string; at: number } | null
  /** Every key is held back by a rate limit until then (epoch ms); null when one is usable. */
  suspendedUntil: number | null
  /** Keys held back by a rate limit now. */
  suspendedKeys: number
  setAside: { reason: string; until: number } | null
  requestsToday: number
  bytesToday: number
  /** The day's limit over all keys; null = none. */
  perDay: number | null
  solidHead: number | null
  /** Blocks behind the most advanced provider's solidified head; null when not known. */
  lagBlocks: number | null
}

export interface ProviderTest {
  ok: boolean
  latencyMs: number
  solidHead: number | null
  error: string | null
}

export interface BlockReadOptions extends ChainReadOptions {
  /** The follower's checkpoint: the first block asked for must have it as parent. */
  follows?: { number: number; blockId: string }
}

export interface ReceiptReadOptions extends ChainReadOptions {
  /** The block's transaction ids in order: an answer that does not list exactly these is a fault. */
  expectTxIds?: readonly string[]
}

/** The day's request budget over the pool, for the sighting watcher (decision 024). */
export interface RequestBudgetView {
  /** Requests a day over the keys of the providers not set aside; null when one has no limit. */
  perDay: number | null
  /** Requests sent today (UTC) to those providers, by everyone. */
  usedToday: number
  /** Of those, the sighting watcher's (ChainReadOptions lane 'sightings'). */
  sightingsToday: number
  /** Since when today's figures were counted (the UTC day's start, or this process's start). */
  countingSince: number
}

export interface ProviderPool extends TronClient {
  getSolidBlocks(
    start: number,
    endExclusive: number,
    opts?: BlockReadOptions,
  ): ReturnType<TronClient['getSolidBlocks']>
  getSolidTransactionInfos(
    blockNumber: number,
    opts?: ReceiptReadOptions,
  ): ReturnType<TronClient['getSolidTransactionInfos']>
  getHeadTransactionInfos(
    blockNumber: number,
    opts?: ReceiptReadOptions,
  ): ReturnType<TronClient['getHeadTransactionInfos']>
  health(): ProviderHealth[]
  /** One look at a provider's solidified head, whatever its state (the operator's "test"). */
  test(name: string): Promise<ProviderTest | null>
  /** Asks every provider whose head is older than maxAgeMs for it (for the lag figures). */
  refreshHeads(maxAgeMs: number): Promise<void>
  /** Since when every read has failed on every provider (epoch ms); null while one answers. */
  failingSince(): number | null
  /** The day's request budget and what has been spent of it (one budget for every reader). */
  requestBudget(): RequestBudgetView
}

export interface ProviderPoolOptions {
  providers: TronProviderConfig[]
  usdtContract: string
  timeoutMs?: number
  /** Pages followed per list call. Default 10. */
  maxPages?: number
  fetch?: typeof fetch
  /** First cool-down after a fault; doubles per consecutive fault up to maxCoolingMs. Default 1000. */
  coolingBaseMs?: number
  maxCoolingMs?: number
  /** How long a provider that disagreed with the checkpoint stays set aside. Default 10 min. */
  setAsideMs?: number
  /**
   * A provider that has answered "no new block" for this long is checked against the next provider
   * (the chain makes a block every 3 s). Default 6000.
   */
  staleAfterMs?: number
  /** A provider was set aside (the operator is told). */
  onSetAside?: (name: string, reason: string) => void
}

const OUTCOME_WINDOW = 50
const DAY_MS = 86_400_000

interface Slot {
  key: string | null
  client: TronClient
  day: number
  requests: number
  bytes: number
}

interface Provider {
  config: TronProviderConfig
  slots: Slot[]
  nextSlot: number
  outcomes: boolean[]
  latencyMs: number | null
  lastError: { message: string; at: number } | null
  consecutiveFaults: number
  coolingUntil: number
  setAside: { reason: string; until: number } | null
  solidHead: number | null
  headAt: number
  /** When it last answered with a block, or was last checked against another provider. */
  freshAt: number
}

type Pick = { provider: Provider; slot: Slot }

export function createProviderPool(options: ProviderPoolOptions): ProviderPool {
  if (options.providers.length === 0) throw new TypeError('at least one provider is needed')
  const coolingBaseMs = options.coolingBaseMs ?? 1000
  const maxCoolingMs = options.maxCoolingMs ?? 30_000
  const setAsideMs = options.setAsideMs ?? 10 * 60_000
  const staleAfterMs = options.staleAfterMs ?? 6000
  const innerFetch = options.fetch ?? fetch
  let lastSuccessAt = Date.now()
  let failingSince: number | null = null
  const startedAt = Date.now()
  /** The sighting watcher's requests today (UTC): they share every key's budget with the follower's. */
  const sightings = { day: Math.floor(Date.now() / DAY_MS), requests: 0 }

  const today = () => Math.floor(Date.now() / DAY_MS)
  const rollDay = (slot: Slot) => {
    if (slot.day !== today()) {
      slot.day = today()
      slot.requests = 0
      slot.bytes = 0
    }
  }

  function countingFetch(slot: Slot): typeof fetch {
    return async (input, init) => {
      rollDay(slot)
      slot.requests += 1
      const res = await innerFetch(input, init)
      const body = await res.arrayBuffer()
      slot.bytes += body.byteLength
      return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers })
    }
  }

  const providers: Provider[] = options.providers.map((config) => {
    const keys: (string | null)[] = config.keys.length > 0 ? config.keys : [null]
    const slots = keys.map((key) => {
      const slot = { key, day: today(), requests: 0, bytes: 0 } as Slot
      slot.client = createTronClient({
        baseUrl: config.url,
        apiKey: key ?? undefined,
        usdtContract: options.usdtContract,
        maxRps: config.rps,
        timeoutMs: options.timeoutMs,
        maxPages: options.maxPages,
        fetch: countingFetch(slot),
      })
      return slot
    })
    return {
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
  const usdtContract = providers[0]?.slots[0]?.client.usdtContract as string

  const hasBudget = (p: Provider, slot: Slot) => {
    rollDay(slot)
    return p.config.perDay === null || slot.requests < p.config.perDay
  }
  const isSetAside = (p: Provider) => p.setAside !== null && p.setAside.until > Date.now()

  /** The next usable key of a provider, in turn (peek: without taking the turn); null when every key is suspended or spent. */
  function slotOf(p: Provider, peek = false): Slot | null {
    for (let i = 0; i < p.slots.length; i++) {
      const slot = p.slots[(p.nextSlot + i) % p.slots.length] as Slot
      if (slot.client.pausedUntil() === 0 && hasBudget(p, slot)) {
        if (!peek) p.nextSlot = (p.nextSlot + i + 1) % p.slots.length
        return slot
      }
    }
    return null
  }

  /** Healthy providers in the operator's order, then those cooling down after a fault. */
  function choose(tried: Set<Provider>, peek = false): Pick | null {
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

  function remember(p: Provider, ok: boolean) {
    p.outcomes.push(ok)
    if (p.outcomes.length > OUTCOME_WINDOW) p.outcomes.shift()
  }

  function succeeded(p: Provider, ms: number) {
    remember(p, true)
    p.consecutiveFaults = 0
    p.coolingUntil = 0
    p.latencyMs = p.latencyMs === null ? ms : Math.round(p.latencyMs * 0.8 + ms * 0.2)
    lastSuccessAt = Date.now()
    failingSince = null
  }

  /** A provider that did not answer in time is left alone longer: each read it gets costs a whole timeout. */
  function faulted(p: Provider, message: string, kind?: TronError['kind']) {
    remember(p, false)
    p.consecutiveFaults += 1
    const base = kind === 'timeout' ? coolingBaseMs * 4 : coolingBaseMs
    p.coolingUntil = Date.now() + Math.min(maxCoolingMs, base * 2 ** Math.min(p.consecutiveFaults - 1, 16))
    p.lastError = { message: message.slice(0, 300), at: Date.now() }
  }

  function sawHead(p: Provider, number: number) {
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

  function countLane(lane: ChainReadOptions['lane']) {
    if (lane !== 'sightings') return
    const day = today()
    if (sightings.day !== day) {
      sightings.day = day
      sightings.requests = 0
    }
    sightings.requests += 1
  }

  function unavailable(): TronError {
    const now = Date.now()
    const open = providers.filter((p) => !isSetAside(p))
    const pauses = open.flatMap((p) => p.slots.map((s) => s.client.pausedUntil())).filter((t) => t > now)
    const allPaused = open.length > 0 && open.every((p) => p.slots.every((s) => s.client.pausedUntil() > now))
    if (allPaused) {
      return tronError('rate_limited', 'every provider is holding back after a rate limit', {
        retryAfterMs: Math.max(0, Math.min(...pauses) - now),
      })
    }
    return tronError(
      'network',
      'no provider is available (set aside, suspended or out of requests for today)',
    )
  }

  /**
   * Sends a read to one provider after another until one answers well. `check` names what is wrong
   * with an answer (a fault, as an error would be); `disagrees` marks an answer that contradicts
   * the checkpoint: its provider is set aside once another provider gives an answer that agrees.
   * A `doubtful` answer is asked of the next provider too: it stands if no one answers better,
   * and is a fault of its provider if another one does.
   */
  async function route<T>(
    call: (client: TronClient, p: Provider) => Promise<TronResult<T>>,
    check?: (
      answer: { status: 'success' } & T,
      p: Provider,
    ) => { fault: string; disagrees?: boolean; doubtful?: boolean } | null,
    /** The caller's: once it aborts, the read stops without blaming any provider. */
    signal?: AbortSignal,
  ): Promise<TronResult<T>> {
    const tried = new Set<Provider>()
    const disagreeing: { provider: Provider; reason: string }[] = []
    const doubted: { provider: Provider; reason: string; answer: TronResult<T>; ms: number }[] = []
    let last: TronError | null = null
    for (;;) {
      const pick = choose(tried)
      if (!pick) break
      const { provider } = pick
      tried.add(provider)
      const started = Date.now()
      const res = await call(pick.slot.client, provider)
      if (res.status === 'error') {
        if (signal?.aborted) return res
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
        last = tronError('malformed', `${provider.config.name}: ${problem.fault}`)
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

  const pool: ProviderPool = {
    usdtContract,

    listTrc20Incoming: (address, opts) => route((c) => c.listTrc20Incoming(address, opts)),
    listTrxIncoming: (address, opts) => route((c) => c.listTrxIncoming(address, opts)),
    getTransactionInfo: (txid, opts) =>
      route((c) => c.getTransactionInfo(txid, opts), undefined, opts?.signal),

    getSolidBlocks(start, endExclusive, opts = {}) {
      return route(
        (c) => c.getSolidBlocks(start, endExclusive, opts),
        (answer, p) => {
          const last = answer.blocks[answer.blocks.length - 1]
          if (last) sawHead(p, last.number)
          const first = answer.blocks[0]
          const follows = opts.follows
          if (
            first &&
            follows &&
            first.number === follows.number + 1 &&
            first.parentHash !== follows.blockId
          ) {
            return {
              fault: `block ${first.number} (${first.blockId}) does not follow the checkpoint ${follows.number} (${follows.blockId})`,
              disagrees: true,
            }
          }
          if (first) {
            p.freshAt = Date.now()
            return null
          }
          // A provider behind another one answers "no such block yet" for blocks that exist.
          const best = bestHead()
          if (best !== null && best >= start)
            return { fault: `has no block ${start} yet (another has ${best})` }
          if (Date.now() - p.freshAt > staleAfterMs) {
            p.freshAt = Date.now()
            return { fault: `no block after ${start - 1} for ${staleAfterMs / 1000} s`, doubtful: true }
          }
          return null
        },
        opts.signal,
      )
    },

    getSolidTransactionInfos(blockNumber, opts = {}) {
      return route(
        (c) => c.getSolidTransactionInfos(blockNumber, opts),
        (answer) => {
          return receiptsFault(`block ${blockNumber}`, answer.infos, opts.expectTxIds)
        },
        opts.signal,
      )
    },

    getSolidHead: (opts) =>
      route(
        (c) => c.getSolidHead(opts),
        (answer, p) => {
          sawHead(p, answer.number)
          return null
        },
        opts?.signal,
      ),
    getHead: (opts) =>
      route(
        (c) => {
          countLane(opts?.lane)
          return c.getHead(opts)
        },
        undefined,
        opts?.signal,
      ),

    // Head reads (the sighting watcher's): unsolidified, so no checkpoint to check them against.
    getHeadBlocks: (start, endExclusive, opts = {}) =>
      route(
        (c) => {
          countLane(opts.lane)
          return c.getHeadBlocks(start, endExclusive, opts)
        },
        undefined,
        opts.signal,
      ),
    getHeadTransactionInfos: (blockNumber, opts = {}) =>
      route(
        (c) => {
          countLane(opts.lane)
          return c.getHeadTransactionInfos(blockNumber, opts)
        },
        (answer) => {
          return receiptsFault(`head block ${blockNumber}`, answer.infos, opts.expectTxIds)
        },
        opts.signal,
      ),

    requestBudget() {
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
    },

    pausedUntil() {
      if (choose(new Set(), true) !== null) return 0
      const e = unavailable()
      return e.retryAfterMs ? Date.now() + e.retryAfterMs : 0
    },

    health() {
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
    },

    async test(name) {
      const p = providers.find((q) => q.config.name === name)
      if (!p) return null
      const slot = p.slots[p.nextSlot % p.slots.length] as Slot
      p.nextSlot = (p.nextSlot + 1) % p.slots.length
      const started = Date.now()
      const res = await slot.client.getSolidHead({ urgent: true })
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
        const res = await slot.client.getSolidHead()
        if (res.status === 'error') faulted(p, res.message, res.kind)
        else {
          sawHead(p, res.number)
          succeeded(p, Date.now() - started)
        }
      }
    },

    failingSince: () => failingSince,
  }
  return pool
}

/** /metrics: the admin panel's figures, one series per provider. */
export function registerProviderGauges(metrics: Metrics, pool: ProviderPool): void {
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

/** A block's receipts must list its transactions, in order; else the provider answered short. */
function receiptsFault(
  block: string,
  infos: readonly { txId: string }[],
  ids: readonly string[] | undefined,
): { fault: string } | null {
  if (!ids) return null
  const same = infos.length === ids.length && infos.every((info, i) => info.txId === ids[i])
  return same
    ? null
    : { fault: `receipts of ${block} list ${infos.length} of its ${ids.length} transactions` }
}
