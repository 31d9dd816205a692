import { randomUUID } from 'node:crypto'
import { type ChainFamilyId, type ChainId, familyOfChain } from '../../shared/chains'
import type { Db } from '../db/client'
import { followerState } from '../db/schema'
import { backoffDelay } from '../lib/backoff'
import { quietLogger, type WorkerLogger } from '../lib/logger'
import { createPollLoop } from '../lib/poll-loop'
import { hasPendingOrder } from '../orders/orders.repo'
import type { PaymentRules } from '../payments/payment-rules'
import { activePoolAddresses, allPoolAddresses, hasAddressCoolingDown } from '../wallets/wallets.repo'
import type { ChainError, FinalBlock, FinalReads } from './chain'
import {
  commitBlocks,
  type LeaseRef,
  LostLeadership,
  ofChain,
  raiseSolidHead,
  readRow,
  recordHalt,
  releaseLease,
  renewLease,
  type StateRow,
  startCheckpoint,
  takeLease,
} from './follower-lease'

// A chain follower: one per enabled chain, each on its own loop and its own lease row in
// follower_state, so one chain's outage never delays another's payments. One process at a time
// leads a chain: it reads the chain's final blocks in order from a checkpoint (through its family's
// readFinal): every transfer to any of our addresses goes into the ledger, orders it completes are
// settled, and orders of that chain whose grace period the chain has passed are cancelled, block by
// block, in one transaction with the checkpoint (height and block hash). A crash anywhere leaves the
// checkpoint where the last commit put it, so the next leader reads the same blocks again and the
// ledger's unique key makes that harmless. A final block whose parent is not the checkpoint (a
// 'reorg' answer) stops the chain's follower and alerts the operator: nothing is written from it.

export interface ChainFollowerOptions {
  db: Db
  /** The chain's final reads: its adapter (a test may hand a family's reads of its own making). */
  chain: FinalReads
  rules: PaymentRules
  /** Blocks asked for at once (the explorer allows 100). Default 20. */
  batchBlocks?: number
  /** Pause before looking again when no new block was solidified yet. Default 1000. */
  intervalMs?: number
  /**
   * The chain's block time. Once caught up, a look that found a block is followed by the next one
   * a block time later, so looks keep in step with the chain: about one look a block. Default 3000.
   */
  blockIntervalMs?: number
  /** First block on a database with no checkpoint; default the solidified head at that moment. */
  startBlock?: number
  /** How long leadership lasts without renewal; another process takes over after it. Default 10 000. */
  leaseMs?: number
  /** Time spent fetching before the blocks read so far are committed. Default leaseMs / 3. */
  fetchBudgetMs?: number
  /** First pause after an explorer failure; doubles up to maxBackoffMs. */
  backoffBaseMs?: number
  maxBackoffMs?: number
  /** How often the solidified head is asked for, for the lag figure, while behind. Default 30 000. */
  headEveryMs?: number
  /**
   * The same once caught up: each commit then carries the head already, so the look only guards a
   * stalled chain. Default 300 000 (decision 022: it is most of the budget's spare room).
   */
  caughtUpHeadEveryMs?: number
  logger?: WorkerLogger
  /** After commit, for each order this process saw paid (wakes the mail worker). */
  onPaid?: (orderId: string) => void
  /** After each commit of blocks (wakes the payment pages' long polls: credits, expiries). */
  onCommitted?: () => void
  /** Identifies this process in the lease; default a random id. */
  instanceId?: string
  /** A final block did not follow the checkpoint: the follower has stopped for this chain. */
  onHalt?: (chain: ChainId, reason: string) => void
  /**
   * An idle shop (no pending order of this chain, no address of its family cooling down) is followed
   * every this many ms, all blocks since the last look in one read (decision 045); 0 follows every
   * block always. Default 0 (main.ts sets FOLLOWER_IDLE_EVERY_MS).
   */
  idleEveryMs?: number
  /** The safety net under a cheaper read (decision 045): run once caught up, at most every `safetyNetEveryMs`. */
  safetyNet?: { run(): Promise<number> }
  /** Default 30 s. */
  safetyNetEveryMs?: number
}

export interface FollowResult {
  leader: boolean
  /** Blocks recorded by this pass. */
  blocks: number
  transfers: number
  /** Orders paid and expired by this pass. */
  paid: string[]
  expired: string[]
  /** The explorer failed or answered something unusable; nothing after the checkpoint was recorded. */
  error?: ChainError
  /** More solidified blocks are waiting (the batch came back full). */
  more: boolean
  checkpoint: number | null
  /** Block time of the newest block recorded by this pass. */
  lastBlockTime?: number
  /** Nothing of this chain is open or cooling down: the next look may wait (idleEveryMs). */
  idle?: boolean
}

export interface FollowerStatus {
  checkpointBlock: number | null
  checkpointTime: number | null
  solidHead: number | null
  /** Solidified blocks not read yet; null when the head is not known. */
  lagBlocks: number | null
  leader: string | null
  leaderUntil: Date | null
  /** The follower stopped at a block that does not follow its checkpoint: why, and since when. */
  halted: { reason: string; since: Date } | null
}

export interface ChainFollower {
  start(): void
  stop(): Promise<void>
  /** One pass: take or renew leadership, read what is new, commit. Tests and benchmarks call it. */
  runOnce(): Promise<FollowResult>
  readonly instanceId: string
  readonly chain: ChainId
  /** Why this follower stopped reading (a block that did not follow the checkpoint); null while it reads. */
  halted(): string | null
  /**
   * Cuts the pause short (a buyer wants to pay: an idle chain is followed block by block again); at
   * most once a block time, so a crowd of buyers costs no more requests than following does.
   */
  wake(): void
}

export async function readFollowerStatus(db: Db, chain: ChainId): Promise<FollowerStatus> {
  const [row] = await db.select().from(followerState).where(ofChain(chain))
  const halted = row?.haltedReason ? { reason: row.haltedReason, since: row.haltedAt ?? row.updatedAt } : null
  if (!row || row.checkpointBlock < 0) {
    return {
      checkpointBlock: null,
      checkpointTime: null,
      solidHead: row?.solidHead ?? null,
      lagBlocks: null,
      leader: row?.leader ?? null,
      leaderUntil: row?.leaderUntil ?? null,
      halted,
    }
  }
  return {
    checkpointBlock: row.checkpointBlock,
    checkpointTime: row.checkpointTime,
    solidHead: row.solidHead,
    lagBlocks: row.solidHead === null ? null : Math.max(0, row.solidHead - row.checkpointBlock),
    leader: row.leader,
    leaderUntil: row.leaderUntil,
    halted,
  }
}

/** The addresses the follower reads for: the family's whole pool, or only those orders hold or cool down after. */
function watchOf(db: Db, reads: FinalReads, family: ChainFamilyId): Promise<string[]> {
  return reads.watchesActiveAddresses ? activePoolAddresses(db, family) : allPoolAddresses(db, family)
}

export function createChainFollower(opts: ChainFollowerOptions): ChainFollower {
  const { db, rules } = opts
  const reads = opts.chain
  const chain = reads.chain
  const family = familyOfChain[chain]
  let halt: string | null = null
  const instanceId = opts.instanceId ?? randomUUID()
  const batch = Math.min(100, Math.max(1, opts.batchBlocks ?? 20))
  const intervalMs = opts.intervalMs ?? 1000
  const blockIntervalMs = opts.blockIntervalMs ?? 3000
  const leaseMs = opts.leaseMs ?? 10_000
  const lease: LeaseRef = { db, chain, instanceId, leaseMs }
  const fetchBudgetMs = opts.fetchBudgetMs ?? Math.floor(leaseMs / 3)
  const backoffBase = opts.backoffBaseMs ?? 1000
  const maxBackoff = opts.maxBackoffMs ?? 30_000
  const log = opts.logger ?? quietLogger
  const pacing = createPacing({
    intervalMs,
    blockIntervalMs,
    idleEveryMs: opts.idleEveryMs ?? 0,
    backoffBase,
    maxBackoff,
    log,
  })
  const headEveryMs = opts.headEveryMs ?? 30_000
  const caughtUpHeadEveryMs = opts.caughtUpHeadEveryMs ?? 300_000
  let behind = true
  let lastHeadAt = 0
  let wasLeader = false

  async function refreshHead(): Promise<void> {
    if (Date.now() - lastHeadAt < (behind ? headEveryMs : caughtUpHeadEveryMs)) return
    const head = await reads.finalHead()
    if (head.status === 'error') return
    lastHeadAt = Date.now()
    await raiseSolidHead(lease, head.number)
  }

  /** Final blocks after the checkpoint with their transfers to our addresses, as far as the fetch budget allows. */
  async function fetchBlocks(
    state: StateRow,
  ): Promise<{ fetched: FinalBlock[]; more: boolean; error?: ChainError }> {
    const watch = new Set(await watchOf(db, reads, family))
    const began = Date.now()
    const read = await reads.readFinal({
      checkpoint: { number: state.checkpointBlock, hash: state.checkpointBlockId },
      watch,
      maxBlocks: batch,
      deadline: began + fetchBudgetMs,
      keepAlive: async () => {
        if (Date.now() - began > leaseMs / 2) await renewLease(lease)
      },
    })
    return { fetched: read.blocks, more: read.more, error: read.error }
  }

  /** No pending order of this chain and no address of its family cooling down. */
  const isIdle = async () => !(await hasPendingOrder(db, chain)) && !(await hasAddressCoolingDown(db, family))
  const runSafetyNet = createSafetyNetRunner(opts, log, chain)

  async function runOnce(): Promise<FollowResult> {
    const idle = (extra: Partial<FollowResult> = {}): FollowResult => ({
      leader: true,
      blocks: 0,
      transfers: 0,
      paid: [],
      expired: [],
      more: false,
      checkpoint: null,
      ...extra,
    })
    let state = await takeLease(lease)
    if (!state) {
      if (wasLeader) log.info({ instanceId }, 'another process follows the chain now')
      wasLeader = false
      return idle({ leader: false })
    }
    if (!wasLeader) log.info({ instanceId, chain }, 'this process follows the chain')
    wasLeader = true
    if (halt) return idle({ error: { status: 'error', kind: 'reorg', message: halt } })
    if (state.checkpointBlock < 0) {
      const error = await startCheckpoint(lease, reads, opts.startBlock, log)
      if (error) return idle({ error })
      state = (await readRow(lease)) as StateRow
    }
    await refreshHead()
    const quiet = (opts.idleEveryMs ?? 0) > 0 && (await isIdle())
    const { fetched, more, error } = await fetchBlocks(state)
    if (error?.kind === 'reorg') {
      // Final blocks that do not follow ours: nothing is written from them until the operator looks.
      // The stop is written to the chain's row, so every process's Chain tab shows it.
      halt = error.message
      log.error({ chain, checkpoint: state.checkpointBlock, reason: halt }, 'chain follower stopped')
      await recordHalt(lease, halt).then(() => opts.onHalt?.(chain, error.message))
      return idle({ error, checkpoint: state.checkpointBlock })
    }
    behind = more || Boolean(error)
    if (!behind) await runSafetyNet()
    if (fetched.length === 0) return idle({ error, checkpoint: state.checkpointBlock, idle: quiet })
    try {
      const done = await commitBlocks(lease, state, fetched, rules)
      for (const id of done.paid) opts.onPaid?.(id)
      opts.onCommitted?.()
      const checkpoint = fetched[fetched.length - 1]?.number ?? state.checkpointBlock
      if (done.paid.length > 0) log.info({ orders: done.paid }, 'orders paid')
      if (done.expired.length > 0)
        log.info({ orders: done.expired }, 'orders cancelled: grace period over without payment')
      // An error after some blocks were read still reports them: they are committed.
      return {
        leader: true,
        blocks: fetched.length,
        ...done,
        more: more || Boolean(error),
        error,
        checkpoint,
        idle: quiet,
      }
    } catch (err) {
      if (err instanceof LostLeadership) {
        wasLeader = false
        return idle({ leader: false })
      }
      throw err
    }
  }

  const loop = createPollLoop<FollowResult>({
    name: 'chain follower',
    pollMs: intervalMs,
    pass: () => {
      pacing.passBegins()
      return runOnce()
    },
    pauseAfter: pacing.pauseAfter,
    // A database hiccup must not kill the follower; it tries again after a pause.
    failurePauseMs: Math.min(maxBackoff, backoffBase * 4),
    logger: log,
  })

  return {
    instanceId,
    chain,
    halted: () => halt,
    wake: createWaker(loop, pacing, blockIntervalMs),
    start: loop.start,
    async stop() {
      await loop.stop()
      await releaseLease(lease)
    },
    runOnce,
  }
}

/**
 * The follower's wake: cuts its pause short (an idle pause of tens of seconds), no sooner than a
 * block time after its last pass began, and once for any number of calls meanwhile: a crowd of
 * buyers costs at most one extra look a block, as following does.
 */
function createWaker(
  loop: { wake(): void },
  pacing: { sinceBegan(): number },
  blockIntervalMs: number,
): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null
  return () => {
    if (timer) return
    timer = setTimeout(
      () => {
        timer = null
        loop.wake()
      },
      Math.max(0, blockIntervalMs - pacing.sinceBegan()),
    )
    timer.unref?.()
  }
}

/** Runs the safety net under a cheaper read (decision 045) at most every `safetyNetEveryMs`; a failure waits for the next. */
function createSafetyNetRunner(
  opts: ChainFollowerOptions,
  log: WorkerLogger,
  chain: ChainId,
): () => Promise<void> {
  let safetyNetAt = 0
  return async () => {
    if (!opts.safetyNet || Date.now() - safetyNetAt < (opts.safetyNetEveryMs ?? 30_000)) return
    safetyNetAt = Date.now()
    try {
      await opts.safetyNet.run()
    } catch (err) {
      log.warn({ err, chain }, 'safety net pass failed; the next one tries again')
    }
  }
}

interface PacingOptions {
  intervalMs: number
  blockIntervalMs: number
  /** 0: every block always (see ChainFollowerOptions.idleEveryMs). */
  idleEveryMs: number
  backoffBase: number
  maxBackoff: number
  log: WorkerLogger
}

// Pacing once caught up: a look that found a block is followed by the next one a little less than a
// block time later, so looks creep towards the moment a block is solidified; the look that comes
// too early finds nothing and tries again shortly after. Looks stay within a fraction of a second
// of each block's solidification, at a little over one look a block.
// The creep is coarse until the first early look has found the phase, then fine.
/** When the follower looks again after a pass (the poll loop's pauseAfter). */
function createPacing({
  intervalMs,
  blockIntervalMs,
  idleEveryMs,
  backoffBase,
  maxBackoff,
  log,
}: PacingOptions) {
  let failures = 0
  const COARSE_CREEP_MS = 500
  const FINE_CREEP_MS = 50
  const RETRY_MS = Math.min(intervalMs, 250)
  let creepMs = COARSE_CREEP_MS
  let emptyStreak = 0
  let began = 0
  /**
   * Whether the looks know when blocks are solidified. Not after a start, an explorer failure or an
   * idle stretch: then, once caught up, looks come every RETRY_MS until one finds a block after one
   * that found none — the block came within the last RETRY_MS — about a dozen looks, once (decision
   * 045: the first payment after a start is paid as soon as the next ones).
   */
  let phaseKnown = false
  let sawEarly = false

  /** The pause after a pass: backing off after explorer failures, at once while behind, else in step with the chain. */
  function pauseAfter(result: FollowResult): number {
    if (result.error) {
      phaseKnown = false
      sawEarly = false
      failures += 1
      // Loud at first, then once per doubling of the streak.
      if ((failures & (failures - 1)) === 0) {
        log.warn(
          { kind: result.error.kind, failures, message: result.error.message },
          'explorer request failed; backing off',
        )
      }
      const pause = backoffDelay(failures, { baseMs: backoffBase, maxMs: maxBackoff })
      return result.error.retryAfterMs ? Math.max(pause, result.error.retryAfterMs) : pause
    }
    failures = 0
    if (result.more) return 0
    // Idle: one read of every block since the last look, now and then; an order placed meanwhile
    // is followed at its next look, from the checkpoint, block by block.
    if (result.idle) {
      phaseKnown = false
      sawEarly = false
      return Math.max(0, idleEveryMs - (Date.now() - began))
    }
    if (result.blocks > 0) {
      emptyStreak = 0
      if (!phaseKnown) {
        if (!sawEarly) return RETRY_MS
        phaseKnown = true
        creepMs = FINE_CREEP_MS
      }
      return Math.max(0, blockIntervalMs - creepMs - (Date.now() - began))
    }
    // The first miss after a block is the creep arriving early; later misses mean the chain (or the
    // explorer's view of it) is slow, and the normal interval applies.
    emptyStreak += 1
    sawEarly = true
    if (emptyStreak === 1) creepMs = FINE_CREEP_MS
    // Probing for the phase stops at two block times of misses: a stalled chain gets the normal interval.
    if (!phaseKnown && emptyStreak * RETRY_MS <= 2 * blockIntervalMs) return RETRY_MS
    return emptyStreak === 1 ? RETRY_MS : intervalMs
  }

  return {
    /** Marks the start of a pass: the pause after it counts from here. */
    passBegins: () => {
      began = Date.now()
    },
    /** Time since the last pass began, ms. */
    sinceBegan: () => Date.now() - began,
    pauseAfter,
  }
}
