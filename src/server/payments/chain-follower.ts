import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { followerState } from '../db/schema'
import { quietLogger, type WorkerLogger } from '../lib/logger'
import { createPollLoop } from '../lib/poll-loop'
import { expireOrdersBefore } from '../orders/orders.repo'
import { allPoolAddresses } from '../wallets/wallets.repo'
import { extractTransfers, needsReceipts } from './extract-transfers'
import type { PaymentRules } from './payment-rules'
import type { ProviderPool } from './provider-pool'
import { recordAndSettle } from './settle-order'
import type { ChainBlock, ChainTxInfo, TronError } from './tron-client'

// The chain follower. One process at a time (a leader lease in follower_state) reads TRON's
// solidified blocks in order from a checkpoint: every transfer to any of our addresses goes into
// the ledger, orders it completes are settled, and orders whose grace period the chain has passed
// are cancelled, block by block, in one transaction with the checkpoint. A crash anywhere leaves
// the checkpoint where the last commit put it, so the next leader reads the same blocks again and
// the ledger's unique key makes that harmless. Its cost does not depend on the number of orders or
// addresses: one request per batch of blocks, one per block holding contract calls.

/** What the follower reads; the provider pool, or one explorer client (which ignores the pool's checks). */
export type FollowerClient = Pick<
  ProviderPool,
  'usdtContract' | 'getSolidBlocks' | 'getSolidTransactionInfos' | 'getSolidHead'
>

export interface ChainFollowerOptions {
  db: Db
  client: FollowerClient
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
  error?: TronError
  /** More solidified blocks are waiting (the batch came back full). */
  more: boolean
  checkpoint: number | null
  /** Block time of the newest block recorded by this pass. */
  lastBlockTime?: number
}

export interface FollowerStatus {
  checkpointBlock: number | null
  checkpointTime: number | null
  solidHead: number | null
  /** Solidified blocks not read yet; null when the head is not known. */
  lagBlocks: number | null
  leader: string | null
  leaderUntil: Date | null
}

export interface ChainFollower {
  start(): void
  stop(): Promise<void>
  /** One pass: take or renew leadership, read what is new, commit. Tests and benchmarks call it. */
  runOnce(): Promise<FollowResult>
  readonly instanceId: string
}

class LostLeadership extends Error {}

type StateRow = typeof followerState.$inferSelect

export async function readFollowerStatus(db: Db): Promise<FollowerStatus> {
  const [row] = await db.select().from(followerState).where(eq(followerState.id, 1))
  if (!row || row.checkpointBlock < 0) {
    return {
      checkpointBlock: null,
      checkpointTime: null,
      solidHead: row?.solidHead ?? null,
      lagBlocks: null,
      leader: row?.leader ?? null,
      leaderUntil: row?.leaderUntil ?? null,
    }
  }
  return {
    checkpointBlock: row.checkpointBlock,
    checkpointTime: row.checkpointTime,
    solidHead: row.solidHead,
    lagBlocks: row.solidHead === null ? null : Math.max(0, row.solidHead - row.checkpointBlock),
    leader: row.leader,
    leaderUntil: row.leaderUntil,
  }
}

export function createChainFollower(opts: ChainFollowerOptions): ChainFollower {
  const { db, client, rules } = opts
  const instanceId = opts.instanceId ?? randomUUID()
  const batch = Math.min(100, Math.max(1, opts.batchBlocks ?? 20))
  const intervalMs = opts.intervalMs ?? 1000
  const blockIntervalMs = opts.blockIntervalMs ?? 3000
  const leaseMs = opts.leaseMs ?? 10_000
  const fetchBudgetMs = opts.fetchBudgetMs ?? Math.floor(leaseMs / 3)
  const backoffBase = opts.backoffBaseMs ?? 1000
  const maxBackoff = opts.maxBackoffMs ?? 30_000
  const headEveryMs = opts.headEveryMs ?? 30_000
  const caughtUpHeadEveryMs = opts.caughtUpHeadEveryMs ?? 300_000
  let behind = true
  const log = opts.logger ?? quietLogger
  let failures = 0
  let lastHeadAt = 0
  let wasLeader = false

  /** Takes the lease when it is free or ours; answers the state row when this process leads. */
  async function lead(): Promise<StateRow | null> {
    const result = (await db.execute(sql`
      insert into ${followerState} (id, checkpoint_block, checkpoint_time, leader, leader_until)
      values (1, -1, 0, ${instanceId}, now() + ${leaseMs} * interval '1 millisecond')
      on conflict (id) do update set leader = excluded.leader, leader_until = excluded.leader_until
      where ${followerState.leader} = ${instanceId} or ${followerState.leaderUntil} is null
         or ${followerState.leaderUntil} < now()
      returning id`)) as unknown as { rows: unknown[] }
    if (result.rows.length === 0) return null
    const [row] = await db.select().from(followerState).where(eq(followerState.id, 1))
    return row ?? null
  }

  async function renew(): Promise<boolean> {
    const rows = await db
      .update(followerState)
      .set({ leaderUntil: sql`now() + ${leaseMs} * interval '1 millisecond'` })
      .where(sql`${followerState.id} = 1 and ${followerState.leader} = ${instanceId}`)
      .returning({ id: followerState.id })
    return rows.length > 0
  }

  /** A new database starts at the configured block or at the solidified head. */
  async function initialise(): Promise<TronError | null> {
    if (opts.startBlock !== undefined) {
      await db
        .update(followerState)
        .set({ checkpointBlock: opts.startBlock - 1, checkpointBlockId: null, checkpointTime: 0 })
        .where(sql`${followerState.id} = 1 and ${followerState.checkpointBlock} < 0`)
      return null
    }
    const head = await client.getSolidHead()
    if (head.status === 'error') return head
    await db
      .update(followerState)
      .set({
        checkpointBlock: head.number,
        checkpointBlockId: head.blockId,
        checkpointTime: head.timestamp,
        solidHead: head.number,
      })
      .where(sql`${followerState.id} = 1 and ${followerState.checkpointBlock} < 0`)
    log.info({ block: head.number }, 'chain follower starts at the solidified head')
    return null
  }

  async function refreshHead(): Promise<void> {
    if (Date.now() - lastHeadAt < (behind ? headEveryMs : caughtUpHeadEveryMs)) return
    const head = await client.getSolidHead()
    if (head.status === 'error') return
    lastHeadAt = Date.now()
    await db
      .update(followerState)
      .set({ solidHead: sql`greatest(coalesce(${followerState.solidHead}, 0), ${head.number})` })
      .where(eq(followerState.id, 1))
  }

  interface FetchedBlock {
    block: ChainBlock
    infos: ChainTxInfo[] | null
  }

  /** Blocks after the checkpoint with their receipts, as far as the fetch budget allows. */
  async function fetchBlocks(
    state: StateRow,
  ): Promise<{ fetched: FetchedBlock[]; more: boolean; error?: TronError }> {
    const start = state.checkpointBlock + 1
    // The pool sets aside a provider whose first block does not follow the checkpoint.
    const follows = state.checkpointBlockId
      ? { number: state.checkpointBlock, blockId: state.checkpointBlockId }
      : undefined
    const res = await client.getSolidBlocks(start, start + batch, { follows })
    if (res.status === 'error') return { fetched: [], more: false, error: res }
    const blocks = res.blocks
    const first = blocks[0]
    if (first && state.checkpointBlockId && first.parentHash !== state.checkpointBlockId) {
      // Solidified blocks never change: a block that does not follow ours is a bad answer.
      return {
        fetched: [],
        more: false,
        error: {
          status: 'error',
          kind: 'malformed',
          message: `block ${first.number} does not follow the checkpoint ${state.checkpointBlock}`,
        },
      }
    }
    const fetched: FetchedBlock[] = []
    const began = Date.now()
    for (const block of blocks) {
      if (fetched.length > 0 && Date.now() - began > fetchBudgetMs) return { fetched, more: true }
      if (!needsReceipts(block)) {
        fetched.push({ block, infos: null })
        continue
      }
      const ids = block.transactions.map((t) => t.txId)
      const infos = await client.getSolidTransactionInfos(block.number, { expectTxIds: ids })
      if (infos.status === 'error') return { fetched, more: false, error: infos }
      // A back-end node that has not got this block yet answers []; never read a block half.
      const same = infos.infos.length === ids.length && infos.infos.every((info, i) => info.txId === ids[i])
      if (!same) {
        return {
          fetched,
          more: false,
          error: {
            status: 'error',
            kind: 'malformed',
            message: `receipts of block ${block.number} do not match its ${ids.length} transactions (got ${infos.infos.length})`,
          },
        }
      }
      fetched.push({ block, infos: infos.infos })
      if (Date.now() - began > leaseMs / 2) await renew()
    }
    return { fetched, more: blocks.length === batch }
  }

  async function commit(
    state: StateRow,
    fetched: FetchedBlock[],
  ): Promise<{ transfers: number; paid: string[]; expired: string[] }> {
    const ours = new Set(await allPoolAddresses(db))
    const last = fetched[fetched.length - 1]?.block as ChainBlock
    return db.transaction(async (tx) => {
      // The checkpoint moves first: the row lock orders two would-be leaders, and a process that
      // lost the lease or whose checkpoint moved meanwhile rolls everything back.
      const moved = await tx
        .update(followerState)
        .set({
          checkpointBlock: last.number,
          checkpointBlockId: last.blockId,
          checkpointTime: last.timestamp,
          solidHead: sql`greatest(coalesce(${followerState.solidHead}, 0), ${last.number})`,
          leaderUntil: sql`now() + ${leaseMs} * interval '1 millisecond'`,
          updatedAt: new Date(),
        })
        .where(
          sql`${followerState.id} = 1 and ${followerState.leader} = ${instanceId} and ${followerState.checkpointBlock} = ${state.checkpointBlock}`,
        )
        .returning({ id: followerState.id })
      if (moved.length === 0) throw new LostLeadership()
      let transfers = 0
      const paid: string[] = []
      const expired: string[] = []
      for (const { block, infos } of fetched) {
        // Nothing in this block or later can pay an order whose grace ended before it.
        expired.push(...(await expireOrdersBefore(tx, block.timestamp, rules.cooldownMs)))
        const found = extractTransfers(block, infos, ours, client.usdtContract)
        const done = await recordAndSettle(tx, found, rules)
        transfers += done.outcomes.filter((o) => o.kind !== 'known').length
        paid.push(...done.paid)
      }
      return { transfers, paid, expired }
    })
  }

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
    let state = await lead()
    if (!state) {
      if (wasLeader) log.info({ instanceId }, 'another process follows the chain now')
      wasLeader = false
      return idle({ leader: false })
    }
    if (!wasLeader) log.info({ instanceId }, 'this process follows the chain')
    wasLeader = true
    if (state.checkpointBlock < 0) {
      const error = await initialise()
      if (error) return idle({ error })
      state = (await db.select().from(followerState).where(eq(followerState.id, 1)))[0] as StateRow
    }
    await refreshHead()
    const { fetched, more, error } = await fetchBlocks(state)
    behind = more || Boolean(error)
    if (fetched.length === 0) return idle({ error, checkpoint: state.checkpointBlock })
    try {
      const done = await commit(state, fetched)
      for (const id of done.paid) opts.onPaid?.(id)
      opts.onCommitted?.()
      const checkpoint = fetched[fetched.length - 1]?.block.number ?? state.checkpointBlock
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
      }
    } catch (err) {
      if (err instanceof LostLeadership) {
        wasLeader = false
        return idle({ leader: false })
      }
      throw err
    }
  }

  // Pacing once caught up: a look that found a block is followed by the next one a little less than a
  // block time later, so looks creep towards the moment a block is solidified; the look that comes
  // too early finds nothing and tries again shortly after. Looks stay within a fraction of a second
  // of each block's solidification, at a little over one look a block.
  // The creep is coarse until the first early look has found the phase, then fine.
  const COARSE_CREEP_MS = 500
  const FINE_CREEP_MS = 50
  const RETRY_MS = Math.min(intervalMs, 250)
  let creepMs = COARSE_CREEP_MS
  let emptyStreak = 0
  let began = 0

  /** The pause after a pass: backing off after explorer failures, at once while behind, else in step with the chain. */
  function pauseAfter(result: FollowResult): number {
    if (result.error) {
      failures += 1
      // Loud at first, then once per doubling of the streak.
      if ((failures & (failures - 1)) === 0) {
        log.warn(
          { kind: result.error.kind, failures, message: result.error.message },
          'explorer request failed; backing off',
        )
      }
      const pause = Math.min(maxBackoff, backoffBase * 2 ** Math.min(failures - 1, 16))
      return result.error.retryAfterMs ? Math.max(pause, result.error.retryAfterMs) : pause
    }
    failures = 0
    if (result.more) return 0
    if (result.blocks > 0) {
      emptyStreak = 0
      return Math.max(0, blockIntervalMs - creepMs - (Date.now() - began))
    }
    // The first miss after a block is the creep arriving early; later misses mean the chain (or the
    // explorer's view of it) is slow, and the normal interval applies.
    emptyStreak += 1
    if (emptyStreak === 1) creepMs = FINE_CREEP_MS
    return emptyStreak === 1 ? RETRY_MS : intervalMs
  }

  const loop = createPollLoop<FollowResult>({
    name: 'chain follower',
    pollMs: intervalMs,
    pass: () => {
      began = Date.now()
      return runOnce()
    },
    pauseAfter,
    // A database hiccup must not kill the follower; it tries again after a pause.
    failurePauseMs: Math.min(maxBackoff, backoffBase * 4),
    logger: log,
  })

  return {
    instanceId,
    start: loop.start,
    async stop() {
      await loop.stop()
      // Hand over at once instead of making the next leader wait for the lease to run out.
      await db
        .update(followerState)
        .set({ leaderUntil: null })
        .where(sql`${followerState.id} = 1 and ${followerState.leader} = ${instanceId}`)
        .catch(() => {})
    },
    runOnce,
  }
}
