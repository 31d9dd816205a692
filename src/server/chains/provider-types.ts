import type { ChainError } from './chain'

// The generic provider pool's types (provider-failover.ts): what the operator configures, what the
// pool reports, and what a family's client and checks plug in.

/** One provider as the operator configures it: its keys take turns, each within the provider's limits. */
export interface ProviderConfig {
  name: string
  url: string
  /** Empty: requests go without a key. */
  keys: string[]
  /** Requests per second, per key. */
  rps: number
  /** Requests a day, per key; null = no daily limit. */
  perDay: number | null
}

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
  /** The provider's final head (TRON: solidified) last seen. */
  solidHead: number | null
  /** Blocks behind the most advanced provider's final head; null when not known. */
  lagBlocks: number | null
}

export interface ProviderTest {
  ok: boolean
  latencyMs: number
  solidHead: number | null
  error: string | null
}

/** The day's request budget over the pool, for the sighting watcher (decision 024). */
export interface RequestBudgetView {
  /** Requests a day over the keys of the providers not set aside; null when one has no limit. */
  perDay: number | null
  /** Requests sent today (UTC) to those providers, by everyone. */
  usedToday: number
  /** Of those, the sighting watcher's (lane 'sightings'). */
  sightingsToday: number
  /** Since when today's figures were counted (the UTC day's start, or this process's start). */
  countingSince: number
}

/** The connection of one key: it holds its own requests back after a rate limit. */
export interface KeyClient {
  /** Epoch ms until which requests are held back after a rate limit (0 when not paused). */
  pausedUntil(): number
}

/** What a family's checks may read and mark of the provider that answered. */
export interface ProviderHandle {
  readonly name: string
  /** When it last answered with a new block, or was last checked against another provider. */
  freshAt: number
}

export type PoolError = ChainError & { kind: 'rate_limited' | 'network' | 'malformed' }

/** What is wrong with an answer (see route). */
export type AnswerProblem = { fault: string; disagrees?: boolean; doubtful?: boolean } | null

export type Answer<T> = { status: 'success' } & T

export interface FailoverOptions<C extends KeyClient> {
  providers: ProviderConfig[]
  /** The client of one key of a provider; reads through `fetch` are counted against its budget. */
  connect(config: ProviderConfig, key: string | null, countedFetch: typeof globalThis.fetch): C
  /** The provider's final head, for the lag figures and the operator's test. */
  probeHead(client: C, urgent: boolean): Promise<Answer<{ number: number }> | ChainError>
  fetch?: typeof fetch
  /** First cool-down after a fault; doubles per consecutive fault up to maxCoolingMs. Default 1000. */
  coolingBaseMs?: number
  maxCoolingMs?: number
  /** How long a provider that disagreed with the checkpoint stays set aside. Default 10 min. */
  setAsideMs?: number
  /** A provider was set aside (the operator is told). */
  onSetAside?: (name: string, reason: string) => void
}

export interface FailoverPool<C extends KeyClient> {
  /**
   * Sends a read to one provider after another until one answers well. `check` names what is wrong
   * with an answer (a fault, as an error would be); `disagrees` marks an answer that contradicts the
   * checkpoint: its provider is set aside once another provider gives an answer that agrees. A
   * `doubtful` answer is asked of the next provider too: it stands if no one answers better, and is
   * a fault of its provider if another one does. Once `signal` aborts, the read stops without
   * blaming any provider. A read on lane 'sightings' is counted as the sighting watcher's.
   */
  route<T, E extends ChainError>(
    call: (client: C, p: ProviderHandle) => Promise<Answer<T> | E>,
    check?: (answer: Answer<T>, p: ProviderHandle) => AnswerProblem,
    opts?: { signal?: AbortSignal; lane?: 'sightings' },
  ): Promise<Answer<T> | E | PoolError>
  /** A provider reported this final head. */
  sawHead(p: ProviderHandle, number: number): void
  /** The most advanced final head among providers not set aside; null when none is known. */
  bestHead(): number | null
  health(): ProviderHealth[]
  requestBudget(): RequestBudgetView
  failingSince(): number | null
  /** 0 when a read can go out now; else when the first key's rate-limit pause ends (0 when unknown). */
  pausedUntil(): number
  test(name: string): Promise<ProviderTest | null>
  refreshHeads(maxAgeMs: number): Promise<void>
}
