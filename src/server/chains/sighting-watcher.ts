import { and, eq } from 'drizzle-orm'
import { type ChainId, chainIds, familyOfChain } from '../../shared/chains'
import type { Db } from '../db/client'
import { followerState } from '../db/schema'
import { backoffDelay } from '../lib/backoff'
import { quietLogger, type WorkerLogger } from '../lib/logger'
import { createPollLoop } from '../lib/poll-loop'
import { METRIC_PREFIX, type Metrics } from '../metrics/metrics'
import { openOrderAddresses } from '../orders/orders.repo'
import type { ChainAdapter, ChainError, ChainProvidersView } from './chain'
import { FOLLOWER_PER_BLOCK, LOOK_COST, sightingPace } from './sighting-pace'
import { type FoundSighting, recordSightings, resolveSightings } from './sighting-store'

// Sightings (decision 024): transfers to the addresses of open orders seen at the head, seconds
// after their block is produced instead of when it is final. A sighting never pays, credits,
// delivers or e-mails anything and never touches the ledger: only the chain follower, reading the
// final block (through settleOrder), does. When the follower has read a sighting's height, the
// sighting is confirmed (the ledger has the transfer) or dropped (it does not: a fork or a
// transaction that vanished). A transfer that failed on chain is kept as a failed sighting.
//
// One watcher per enabled chain, each on its own loop, reading its chain's head through its
// family's HeadReader and the chain's provider pool: one budget with that chain's follower. It
// looks only while an order it watches is open, at most once a block, and slower, or not at all,
// when the day's budget left after the follower's share would not last the day: sightings give
// way, the follower never does (sighting-pace.ts).

export { sightingPace }

export type SightingMode = 'idle' | 'full' | 'slowed' | 'paused'

export interface SightingWatcherStatus {
  mode: SightingMode
  /** Time between looks now, ms (the block time at full pace); null while idle or paused. */
  lookEveryMs: number | null
  /** Head block last read; null before the first look. */
  headBlock: number | null
  lastLookAt: number | null
}

export interface SightingWatcherOptions {
  db: Db
  /** The chain watched: its adapter. */
  chain: Pick<ChainAdapter, 'chain' | 'createHeadReader' | 'blockIntervalMs'> & {
    providers: Pick<ChainProvidersView, 'requestBudget'>
  }
  /** The chain's block time. Default the chain's. */
  blockIntervalMs?: number
  /** Runs only while this process leads the chain's follower (its follower_state lease); unset: always. */
  instanceId?: string
  /**
   * The follower's requests a second assumed until enough of the day has been counted to measure
   * them; default FOLLOWER_PER_BLOCK, 1.2 a block (decision 045: 1.17 looks, receipts only for a
   * block paying us by contract; 2.2 under decision 022).
   */
  followerPerSecond?: number
  /** Share kept over the follower's projected day for the buyer's hash checks and reconciliation. Default 0.05. */
  reserveShare?: number
  /** Pause when no order is open (one database read a look, no request). Default 1000. */
  idleMs?: number
  logger?: WorkerLogger
  /** After each commit: the orders whose sightings changed (wakes their long polls). */
  onChange?: (orderIds: string[]) => void
  now?: () => number
}

export interface SightingPass {
  mode: SightingMode
  /** Requests sent by this pass. */
  requests: number
  /** Sightings written or resolved. */
  seen: number
  resolved: number
  /** Orders whose sightings changed. */
  orders: string[]
  error?: ChainError
  /** Wait before the next pass, ms. */
  nextInMs: number
}

export interface SightingWatcher {
  start(): void
  stop(): Promise<void>
  /** One pass: resolve what the follower has read, then look at the head if the budget allows. */
  runOnce(): Promise<SightingPass>
  /**
   * Looks once more unless the last look is at most a block time old (a checkout about to give an
   * address back, decision 061): a pass already running is awaited rather than doubled, and a wait
   * for the next block by the chain's clock is cut short (a budget's or a failure's wait stands).
   */
  lookIfStale(): Promise<void>
  status(): SightingWatcherStatus
  readonly chain: ChainId
}

export function createSightingWatcher(opts: SightingWatcherOptions): SightingWatcher {
  const { db } = opts
  const chain: ChainId = opts.chain.chain
  const blockIntervalMs = opts.blockIntervalMs ?? opts.chain.blockIntervalMs
  const followerPerSecond = opts.followerPerSecond ?? FOLLOWER_PER_BLOCK / (blockIntervalMs / 1000)
  const reserveShare = opts.reserveShare ?? 0.05
  const idleMs = opts.idleMs ?? 1000
  const now = opts.now ?? Date.now
  const log = opts.logger ?? quietLogger
  const reader = opts.chain.createHeadReader({ now })
  const budget = () => opts.chain.providers.requestBudget()
  /** The orders watched: those placed to be paid on a chain of this chain's family. */
  const chains = chainIds.filter((c) => familyOfChain[c] === familyOfChain[chain])
  let nextLookAt = 0
  /** The nextLookAt that only waits for the next block by the chain's clock (no budget, no backoff). */
  let blockDueAt = -1
  let failures = 0
  /** Requests saved from the day's share while the budget is tight (null when it is not). */
  let saved: number | null = null
  let savedAt = now()
  let state: SightingWatcherStatus = { mode: 'idle', lookEveryMs: null, headBlock: null, lastLookAt: null }

  function setMode(mode: SightingMode, lookEveryMs: number | null) {
    if (mode !== state.mode) {
      const line = { chain, mode, lookEveryS: lookEveryMs === null ? null : lookEveryMs / 1000 }
      if (mode === 'paused' || mode === 'slowed') log.warn(line, modeMessage[mode])
      else log.info(line, modeMessage[mode])
    }
    state = { ...state, mode, lookEveryMs }
  }

  async function runOnce(): Promise<SightingPass> {
    const pass: SightingPass = {
      mode: state.mode,
      requests: 0,
      seen: 0,
      resolved: 0,
      orders: [],
      nextInMs: idleMs,
    }
    if (!(await leads(db, chain, opts.instanceId))) {
      reader.reset()
      setMode('idle', null)
      return { ...pass, mode: 'idle' }
    }
    const resolvedOrders = await resolveSightings(db, chain)
    pass.resolved = resolvedOrders.length
    const changed = new Set(resolvedOrders)
    if (now() < nextLookAt && state.mode !== 'idle') {
      if (changed.size > 0) opts.onChange?.([...changed])
      return { ...pass, orders: [...changed], nextInMs: Math.min(idleMs, nextLookAt - now()) }
    }
    const open = await openOrderAddresses(db, chains)
    if (open.length === 0) {
      reader.reset()
      setMode('idle', null)
      if (changed.size > 0) opts.onChange?.([...changed])
      return { ...pass, mode: 'idle', orders: [...changed] }
    }
    const pace = sightingPace(budget?.(), {
      now: now(),
      blockIntervalMs,
      followerPerSecond,
      reserveShare,
    })
    // Under a tight budget, what the day's share allows accrues while no order is open (up to an
    // hour's worth): a checkout then gets looks at every block while the savings last, and the
    // share's pace (a look every lookEveryMs) after that.
    let mode: SightingMode = pace.mode
    if (pace.mode === 'slowed') {
      const rate = (LOOK_COST * 1000) / pace.lookEveryMs
      const cap = rate * 3600
      saved = Math.min(cap, saved === null ? cap : saved + (rate * (now() - savedAt)) / 1000)
      savedAt = now()
      if (saved >= LOOK_COST) mode = 'full'
      else {
        nextLookAt = now() + ((LOOK_COST - saved) / rate) * 1000
        setMode('slowed', pace.lookEveryMs)
        if (changed.size > 0) opts.onChange?.([...changed])
        return { ...pass, mode: 'slowed', orders: [...changed], nextInMs: idleMs }
      }
    } else {
      saved = null
      savedAt = now()
    }
    setMode(mode, pace.mode === 'paused' ? null : mode === 'full' ? blockIntervalMs : pace.lookEveryMs)
    if (pace.mode === 'paused') {
      // Looked at again in a minute: the budget frees up as the day goes on.
      nextLookAt = now() + pace.lookEveryMs
      reader.reset()
      if (changed.size > 0) opts.onChange?.([...changed])
      return { ...pass, mode: pace.mode, orders: [...changed], nextInMs: idleMs }
    }
    const byAddress = new Map(open.map((o) => [o.address, o.id]))
    const looked = await reader.look(new Set(byAddress.keys()))
    pass.requests = looked.requests
    if (saved !== null) saved -= looked.requests
    state = { ...state, lastLookAt: now(), headBlock: looked.head ?? state.headBlock }
    if (looked.error) {
      failures += 1
      pass.error = looked.error
      nextLookAt =
        now() +
        Math.max(looked.error.retryAfterMs ?? 0, backoffDelay(failures, { baseMs: 1000, maxMs: 30_000 }))
    } else {
      failures = 0
      // The next look: when the next block is due (by the chain's clock), or later when the budget
      // says so; a look that found nothing new tries again shortly.
      const dueAt = looked.lastBlockTime + blockIntervalMs + 300
      nextLookAt = looked.head === null ? now() + 500 : Math.max(dueAt, now() + 250)
      blockDueAt = nextLookAt
    }
    const found: FoundSighting[] = []
    for (const f of looked.found) {
      const orderId = byAddress.get(f.to)
      if (orderId) found.push({ ...f, orderId })
    }
    if (found.length > 0 || looked.head !== null) {
      for (const id of await recordSightings(db, chain, found, looked.head)) changed.add(id)
      pass.seen = found.length
    }
    if (changed.size > 0) opts.onChange?.([...changed])
    return {
      ...pass,
      mode,
      orders: [...changed],
      nextInMs: Math.min(idleMs, Math.max(0, nextLookAt - now())),
    }
  }

  // One pass at a time: the loop's and a checkout's share the head reader's cursor.
  const passes = oneAtATime(runOnce)

  const loop = createPollLoop({
    pollMs: idleMs,
    pass: passes.run,
    pauseAfter: (pass) => Math.max(50, pass.nextInMs),
    failurePauseMs: 5000,
    logger: log,
    name: `sighting watcher (${chain})`,
  })

  return {
    chain,
    start: () => loop.start(),
    stop: () => loop.stop(),
    runOnce: passes.run,
    async lookIfStale() {
      await passes.settled()
      if (state.lastLookAt !== null && now() - state.lastLookAt <= blockIntervalMs) return
      if (nextLookAt === blockDueAt) nextLookAt = 0
      await passes.run()
    },
    status: () => state,
  }
}

/** Runs `pass` one at a time: a call made while one runs starts after it (it asks for news since). */
function oneAtATime<T>(pass: () => Promise<T>) {
  let running: Promise<T> | null = null
  const settled = async () => {
    while (running) await running.catch(() => undefined)
  }
  return {
    settled,
    async run(): Promise<T> {
      await settled()
      const started = pass().finally(() => {
        running = null
      })
      running = started
      return started
    },
  }
}

const modeMessage: Record<SightingMode, string> = {
  paused: "sightings paused: the day's request budget is kept for the chain follower",
  slowed: 'sightings slowed to fit the request budget',
  full: 'sightings look at every head block',
  idle: 'sightings idle: no open order',
}

/** Whether this process holds the chain follower's lease (always, without an instance id). */
async function leads(db: Db, chain: ChainId, instanceId: string | undefined): Promise<boolean> {
  if (!instanceId) return true
  const [row] = await db
    .select({ leader: followerState.leader, until: followerState.leaderUntil })
    .from(followerState)
    .where(and(eq(followerState.chain, chain)))
  return Boolean(row && row.leader === instanceId && row.until && row.until.getTime() > Date.now())
}

/** /metrics: how the watcher paces itself against the one request budget (decision 024). */
export function registerSightingGauges(
  metrics: Metrics,
  watcher: SightingWatcher,
  pool: Pick<ChainProvidersView, 'requestBudget'>,
): void {
  const modes: Record<SightingMode, number> = { idle: 0, full: 1, slowed: 2, paused: 3 }
  metrics.gauge(
    `${METRIC_PREFIX}sightings_mode`,
    'Sighting watcher: 0 idle (no open order), 1 every head block, 2 slowed by the request budget, 3 paused for the follower',
    () => modes[watcher.status().mode],
  )
  metrics.gauge(
    `${METRIC_PREFIX}sightings_look_interval_seconds`,
    'Seconds between two looks at the head (NaN while idle or paused)',
    () => {
      const ms = watcher.status().lookEveryMs
      return ms === null ? Number.NaN : ms / 1000
    },
  )
  metrics.gauge(
    `${METRIC_PREFIX}sightings_requests_today`,
    "Requests the sighting watcher sent today (UTC), out of the providers' shared budget",
    () => pool.requestBudget().sightingsToday,
  )
}
