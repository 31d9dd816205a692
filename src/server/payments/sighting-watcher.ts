import { and, eq, inArray, lte, sql } from 'drizzle-orm'
import { tronAddressFromAbiWord, tronBase58ToHex } from '../../shared/tron-address'
import type { Db } from '../db/client'
import { followerState, paymentSightings, payments, type SightingSource } from '../db/schema'
import { quietLogger, type WorkerLogger } from '../lib/logger'
import { createPollLoop } from '../lib/poll-loop'
import { METRIC_PREFIX, type Metrics } from '../metrics/metrics'
import { openOrderAddresses } from '../orders/orders.repo'
import { recordOrderEvent } from '../webhooks/events'
import { extractTransfers } from './extract-transfers'
import type { ProviderPool, RequestBudgetView } from './provider-pool'
import type { ChainBlock, ChainTxInfo, TronError } from './tron-client'

// Sightings (decision 024): transfers to the addresses of open orders seen in the unsolidified head,
// seconds after their block is produced instead of a minute later when it is solidified. A sighting
// never pays, credits, delivers or e-mails anything and never touches the ledger: only the chain
// follower, reading the solidified block, does (through settleOrder). When the follower has read a
// sighting's height, the sighting is confirmed (the ledger has the transfer) or dropped (it does
// not: a fork or a transaction that vanished). A transfer that failed on chain (OUT_OF_ENERGY,
// REVERT, …) is kept as a failed sighting, so the buyer and the operator learn why nothing arrived.
//
// The watcher reads through the same provider pool, keys and daily counters as the follower: one
// budget. It reads head blocks (one getblockbylimitnext a look, every block since the last look)
// and receipts only for a block whose contract call names an open order's address in its call data.
// It looks only while an order is open, at most once a block, and slower, or not at all, when the
// day's budget left after the follower's share would not last the day: sightings give way, the
// follower never does.

export type SightingClient = Pick<
  ProviderPool,
  'usdtContract' | 'getHead' | 'getHeadBlocks' | 'getHeadTransactionInfos'
> &
  Partial<Pick<ProviderPool, 'requestBudget'>>

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
  client: SightingClient
  /** The chain's block time. Default 3000. */
  blockIntervalMs?: number
  /** Runs only while this process leads the chain follower (its follower_state lease); unset: always. */
  instanceId?: string
  /**
   * The follower's requests a second assumed until enough of the day has been counted to measure
   * them; default 2.2 a block (decision 022: 1.17 looks and one receipt call a block, hash checks).
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
  error?: TronError
  /** Wait before the next pass, ms. */
  nextInMs: number
}

export interface SightingWatcher {
  start(): void
  stop(): Promise<void>
  /** One pass: resolve what the follower has read, then look at the head if the budget allows. */
  runOnce(): Promise<SightingPass>
  status(): SightingWatcherStatus
}

const DAY_MS = 86_400_000
const TRANSFER_SELECTOR = 'a9059cbb'
const TRANSFER_FROM_SELECTOR = '23b872dd'
/** Requests a look costs on average: the head blocks, now and then a receipt call or an early look. */
const LOOK_COST = 1.2
/** After a pause longer than this many blocks, the look starts at the head: older blocks are the follower's. */
const MAX_BACKLOG_BLOCKS = 20

/**
 * How often sightings may look, from the day's budget: what is left after the follower's projected
 * requests for the rest of the day (measured, or the default estimate while little is counted),
 * spread evenly over the rest of the day. Exported for tests and the decision's figures.
 */
export function sightingPace(
  budget: RequestBudgetView | undefined,
  opts: { now: number; blockIntervalMs: number; followerPerSecond: number; reserveShare: number },
): { mode: 'full' | 'slowed' | 'paused'; lookEveryMs: number } {
  const full = { mode: 'full' as const, lookEveryMs: opts.blockIntervalMs }
  if (!budget || budget.perDay === null) return full
  const dayEnd = (Math.floor(opts.now / DAY_MS) + 1) * DAY_MS
  const secondsLeft = Math.max(1, (dayEnd - opts.now) / 1000)
  const counted = Math.max(1, (opts.now - budget.countingSince) / 1000)
  const others = Math.max(0, budget.usedToday - budget.sightingsToday)
  // Ten minutes of counting before the measured rate replaces the estimate (a catch-up burst or a
  // quiet start would mislead either way); never below the estimate.
  const measured = counted >= 600 ? others / counted : 0
  const followerRate = Math.max(measured, opts.followerPerSecond)
  const reserve = (others + followerRate * secondsLeft) * (1 + opts.reserveShare)
  const left = budget.perDay - reserve - budget.sightingsToday
  if (left < 1) return { mode: 'paused', lookEveryMs: 60_000 }
  const lookEveryMs = Math.ceil(((LOOK_COST * secondsLeft) / left) * 1000)
  if (lookEveryMs <= opts.blockIntervalMs) return full
  return { mode: 'slowed', lookEveryMs: Math.min(lookEveryMs, 10 * 60_000) }
}

/** The 40-hex body of each address named by a call's arguments (ABI words after the selector). */
function addressesInCall(data: string, open: ReadonlyMap<string, string>): string[] {
  const found: string[] = []
  for (let i = 8; i + 64 <= data.length; i += 64) {
    const body = data.slice(i + 24, i + 64)
    if (open.has(body)) found.push(body)
  }
  return found
}

interface FailedTransfer {
  txId: string
  token: 'USDT' | 'TRX'
  from: string
  to: string
  value: bigint
  failure: string
}

/** A USDT transfer or transferFrom call, or a TRX transfer, to an open address that failed on chain. */
function failedTransfers(
  block: ChainBlock,
  open: ReadonlySet<string>,
  usdtContract: string,
): FailedTransfer[] {
  const found: FailedTransfer[] = []
  for (const tx of block.transactions) {
    if (tx.contractRet === null || tx.contractRet === 'SUCCESS') continue
    if (tx.trx && open.has(tx.trx.to)) {
      found.push({ txId: tx.txId, token: 'TRX', ...tx.trx, failure: tx.contractRet })
      continue
    }
    if (tx.calledContract !== usdtContract || !tx.callData) continue
    const data = tx.callData
    const words = (n: number) => data.slice(8 + 64 * n, 8 + 64 * (n + 1))
    let to: string | null = null
    let from: string | null = null
    let value: string | null = null
    if (data.startsWith(TRANSFER_SELECTOR) && data.length >= 8 + 128) {
      to = tronAddressFromAbiWord(`${'0'.repeat(24)}${words(0).slice(24)}`)
      value = words(1)
    } else if (data.startsWith(TRANSFER_FROM_SELECTOR) && data.length >= 8 + 192) {
      from = tronAddressFromAbiWord(`${'0'.repeat(24)}${words(0).slice(24)}`)
      to = tronAddressFromAbiWord(`${'0'.repeat(24)}${words(1).slice(24)}`)
      value = words(2)
    }
    if (!to || !value || !/^[0-9a-f]{64}$/.test(value) || !open.has(to)) continue
    found.push({
      txId: tx.txId,
      token: 'USDT',
      // The caller of transfer() is the holder; transferFrom names the holder in its first argument.
      from: from ?? tx.caller ?? '',
      to,
      value: BigInt(`0x${value}`),
      failure: tx.contractRet,
    })
  }
  return found
}

export function createSightingWatcher(opts: SightingWatcherOptions): SightingWatcher {
  const { db, client } = opts
  const blockIntervalMs = opts.blockIntervalMs ?? 3000
  const followerPerSecond = opts.followerPerSecond ?? 2.2 / (blockIntervalMs / 1000)
  const reserveShare = opts.reserveShare ?? 0.05
  const idleMs = opts.idleMs ?? 1000
  const now = opts.now ?? Date.now
  const log = opts.logger ?? quietLogger
  /** Next head block to read, the id of the last one read, and its time. */
  let cursor: number | null = null
  let lastBlockTime = 0
  let nextLookAt = 0
  let failures = 0
  /** The 20-byte hex of each pool address, as call data carries it (decoding base58 costs a hash). */
  const bodies = new Map<string, string>()
  const bodyOf = (address: string) => {
    let body = bodies.get(address)
    if (body === undefined) {
      body = tronBase58ToHex(address).slice(2)
      if (bodies.size > 100_000) bodies.clear()
      bodies.set(address, body)
    }
    return body
  }
  /** Requests saved from the day's share while the budget is tight (null when it is not). */
  let saved: number | null = null
  let savedAt = now()
  let state: SightingWatcherStatus = { mode: 'idle', lookEveryMs: null, headBlock: null, lastLookAt: null }

  function setMode(mode: SightingMode, lookEveryMs: number | null) {
    if (mode !== state.mode) {
      const message =
        mode === 'paused'
          ? "sightings paused: the day's request budget is kept for the chain follower"
          : mode === 'slowed'
            ? 'sightings slowed to fit the request budget'
            : mode === 'full'
              ? 'sightings look at every head block'
              : 'sightings idle: no open order'
      const line = { mode, lookEveryS: lookEveryMs === null ? null : lookEveryMs / 1000 }
      if (mode === 'paused' || mode === 'slowed') log.warn(line, message)
      else log.info(line, message)
    }
    state = { ...state, mode, lookEveryMs }
  }

  async function leads(): Promise<boolean> {
    if (!opts.instanceId) return true
    const [row] = await db
      .select({ leader: followerState.leader, until: followerState.leaderUntil })
      .from(followerState)
      .where(eq(followerState.id, 1))
    return Boolean(row && row.leader === opts.instanceId && row.until && row.until.getTime() > Date.now())
  }

  /** Sightings whose height the follower has read: confirmed when the ledger has them, else dropped. */
  async function resolve(): Promise<string[]> {
    const [row] = await db
      .select({ checkpoint: followerState.checkpointBlock })
      .from(followerState)
      .where(eq(followerState.id, 1))
    if (!row || row.checkpoint < 0) return []
    const due = await db
      .select({ id: paymentSightings.id, orderId: paymentSightings.orderId })
      .from(paymentSightings)
      .where(and(eq(paymentSightings.status, 'seen'), lte(paymentSightings.blockNumber, row.checkpoint)))
    if (due.length === 0) return []
    const ids = due.map((d) => d.id)
    await db.execute(sql`
      update ${paymentSightings} s set
        status = case when exists (
          select 1 from ${payments} p
          where p.tx_id = s.tx_id and p.source = s.source and p.event_index = s.event_index
        ) then 'confirmed' else 'dropped' end,
        resolved_at = now()
      where s.id in ${sql.raw(`(${ids.map((n) => Number(n)).join(',')})`)} and s.status = 'seen'`)
    return [...new Set(due.map((d) => d.orderId))]
  }

  interface Found {
    orderId: string
    txId: string
    source: SightingSource
    eventIndex: number
    token: 'USDT' | 'TRX'
    value: bigint
    from: string
    to: string
    blockNumber: number
    blockTimestamp: number
    failure: string | null
  }

  async function record(found: Found[], headBlock: number | null): Promise<string[]> {
    const changed = new Set<string>()
    await db.transaction(async (tx) => {
      for (const f of found) {
        // Seen again after being dropped (the transaction came back in another block): seen again.
        // A confirmed or failed sighting stays as it is.
        const rows = (await tx.execute(sql`
          insert into ${paymentSightings} (order_id, tx_id, source, event_index, token, amount_units,
            from_address, to_address, block_number, block_timestamp, status, failure)
          values (${f.orderId}, ${f.txId}, ${f.source}, ${f.eventIndex}, ${f.token}, ${f.value.toString()},
            ${f.from}, ${f.to}, ${f.blockNumber}, ${f.blockTimestamp}, ${f.failure ? 'failed' : 'seen'}, ${f.failure})
          on conflict (tx_id, source, event_index) do update set
            block_number = excluded.block_number, block_timestamp = excluded.block_timestamp,
            status = 'seen', resolved_at = null
          where ${paymentSightings.status} = 'dropped' and excluded.status = 'seen'
          returning (xmax = 0) as inserted, status`)) as unknown as {
          rows: { inserted: boolean; status: string }[]
        }
        const written = rows.rows[0]
        if (!written) continue
        changed.add(f.orderId)
        if (written.status !== 'seen') continue
        // order.confirming once per order: at its first live sighting.
        const earlier = await tx
          .select({ id: paymentSightings.id })
          .from(paymentSightings)
          .where(
            and(
              eq(paymentSightings.orderId, f.orderId),
              inArray(paymentSightings.status, ['seen', 'confirmed', 'dropped']),
              sql`not (${paymentSightings.txId} = ${f.txId} and ${paymentSightings.source} = ${f.source} and ${paymentSightings.eventIndex} = ${f.eventIndex})`,
            ),
          )
          .limit(1)
        if (earlier.length === 0) {
          await recordOrderEvent(tx, 'order.confirming', f.orderId, {
            sighting: {
              tx_id: f.txId,
              token: f.token,
              amount_units: f.value.toString(),
              block_number: f.blockNumber,
            },
          })
        }
      }
      if (headBlock !== null) {
        await tx
          .update(followerState)
          .set({ headBlock: sql`greatest(coalesce(${followerState.headBlock}, 0), ${headBlock})` })
          .where(eq(followerState.id, 1))
      }
    })
    return [...changed]
  }

  async function look(
    open: { id: string; address: string }[],
  ): Promise<{ requests: number; found: Found[]; head: number | null; error?: TronError }> {
    let requests = 0
    const byAddress = new Map(open.map((o) => [o.address, o.id]))
    const byBody = new Map(open.map((o) => [bodyOf(o.address), o.address]))
    const openSet = new Set(byAddress.keys())
    // Where to start: after the last block read, unless the watcher slept through more than a few
    // blocks (those are the follower's to settle in a minute anyway): then at the head.
    const behind = cursor === null ? Number.POSITIVE_INFINITY : (now() - lastBlockTime) / blockIntervalMs
    if (cursor === null || behind > MAX_BACKLOG_BLOCKS) {
      requests += 1
      const head = await client.getHead({ lane: 'sightings' })
      if (head.status === 'error') return { requests, found: [], head: null, error: head }
      cursor = head.number
      lastBlockTime = head.timestamp - blockIntervalMs
    }
    const start = cursor as number
    requests += 1
    const res = await client.getHeadBlocks(start, start + MAX_BACKLOG_BLOCKS + 5, { lane: 'sightings' })
    if (res.status === 'error') return { requests, found: [], head: null, error: res }
    const found: Found[] = []
    for (const block of res.blocks) {
      const callsUs = block.transactions.filter(
        (tx) =>
          tx.contractRet === 'SUCCESS' && tx.callData && addressesInCall(tx.callData, byBody).length > 0,
      )
      let infos: ChainTxInfo[] | null = null
      if (callsUs.length > 0) {
        requests += 1
        const ids = block.transactions.map((t) => t.txId)
        const got = await client.getHeadTransactionInfos(block.number, {
          lane: 'sightings',
          expectTxIds: ids,
        })
        // Without the receipts the block is read again at the next look.
        if (got.status === 'error') return { requests, found, head: null, error: got }
        infos = got.infos
      }
      for (const t of extractTransfers(block, infos, openSet, client.usdtContract)) {
        const orderId = byAddress.get(t.to)
        if (!orderId) continue
        found.push({
          orderId,
          txId: t.txId,
          source: t.source,
          eventIndex: t.eventIndex,
          token: t.token,
          value: t.value,
          from: t.from,
          to: t.to,
          blockNumber: block.number,
          blockTimestamp: block.timestamp,
          failure: null,
        })
      }
      for (const f of failedTransfers(block, openSet, client.usdtContract)) {
        const orderId = byAddress.get(f.to)
        if (!orderId) continue
        found.push({
          orderId,
          txId: f.txId,
          source: f.token === 'TRX' ? 'trx' : 'call',
          eventIndex: 0,
          token: f.token,
          value: f.value,
          from: f.from,
          to: f.to,
          blockNumber: block.number,
          blockTimestamp: block.timestamp,
          failure: f.failure,
        })
      }
      cursor = block.number + 1
      lastBlockTime = block.timestamp
    }
    const last = res.blocks[res.blocks.length - 1]
    return { requests, found, head: last ? last.number : null }
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
    if (!(await leads())) {
      cursor = null
      setMode('idle', null)
      return { ...pass, mode: 'idle' }
    }
    const resolvedOrders = await resolve()
    pass.resolved = resolvedOrders.length
    const changed = new Set(resolvedOrders)
    if (now() < nextLookAt && state.mode !== 'idle') {
      if (changed.size > 0) opts.onChange?.([...changed])
      return { ...pass, orders: [...changed], nextInMs: Math.min(idleMs, nextLookAt - now()) }
    }
    const open = await openOrderAddresses(db)
    if (open.length === 0) {
      cursor = null
      setMode('idle', null)
      if (changed.size > 0) opts.onChange?.([...changed])
      return { ...pass, mode: 'idle', orders: [...changed] }
    }
    const pace = sightingPace(client.requestBudget?.(), {
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
      cursor = null
      if (changed.size > 0) opts.onChange?.([...changed])
      return { ...pass, mode: pace.mode, orders: [...changed], nextInMs: idleMs }
    }
    const looked = await look(open)
    pass.requests = looked.requests
    if (saved !== null) saved -= looked.requests
    state = { ...state, lastLookAt: now(), headBlock: looked.head ?? state.headBlock }
    if (looked.error) {
      failures += 1
      pass.error = looked.error
      nextLookAt =
        now() + Math.max(looked.error.retryAfterMs ?? 0, Math.min(30_000, 1000 * 2 ** (failures - 1)))
    } else {
      failures = 0
      // The next look: when the next block is due (by the chain's clock), or later when the budget
      // says so; a look that found nothing new tries again shortly.
      const dueAt = lastBlockTime + blockIntervalMs + 300
      nextLookAt = looked.head === null ? now() + 500 : Math.max(dueAt, now() + 250)
    }
    if (looked.found.length > 0 || looked.head !== null) {
      for (const id of await record(looked.found, looked.head)) changed.add(id)
      pass.seen = looked.found.length
    }
    if (changed.size > 0) opts.onChange?.([...changed])
    return {
      ...pass,
      mode,
      orders: [...changed],
      nextInMs: Math.min(idleMs, Math.max(0, nextLookAt - now())),
    }
  }

  const loop = createPollLoop({
    pollMs: idleMs,
    pass: runOnce,
    pauseAfter: (pass) => Math.max(50, pass.nextInMs),
    failurePauseMs: 5000,
    logger: log,
    name: 'sighting watcher',
  })

  return {
    start: () => loop.start(),
    stop: () => loop.stop(),
    runOnce,
    status: () => state,
  }
}

/** /metrics: how the watcher paces itself against the one request budget (decision 024). */
export function registerSightingGauges(
  metrics: Metrics,
  watcher: SightingWatcher,
  pool: Pick<ProviderPool, 'requestBudget'>,
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
