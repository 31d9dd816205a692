import { and, eq, sql } from 'drizzle-orm'
import type { ChainId } from '../../shared/chains'
import type { Db } from '../db/client'
import { followerRowId, followerState } from '../db/schema'
import type { WorkerLogger } from '../lib/logger'
import { expireOrdersBefore } from '../orders/orders.repo'
import type { PaymentRules } from '../payments/payment-rules'
import { recordAndSettle } from '../payments/settle-order'
import type { ChainError, FinalBlock, FinalReads } from './chain'

// A chain follower's row in follower_state (chain-follower.ts): who leads the chain (the lease,
// taken, renewed and handed over here) and where it has read to (the checkpoint, moved here in one
// transaction with what the blocks it passes do to the ledger and to orders).

export type StateRow = typeof followerState.$inferSelect

/** The commit found the lease taken or the checkpoint moved by another process: nothing was written. */
export class LostLeadership extends Error {}

/** One process's hold on one chain's row. */
export interface LeaseRef {
  db: Db
  chain: ChainId
  instanceId: string
  leaseMs: number
}

export const ofChain = (chain: ChainId) => eq(followerState.chain, chain)

const rowOf = (ref: LeaseRef) => and(eq(followerState.id, followerRowId(ref.chain)), ofChain(ref.chain))
const ours = (ref: LeaseRef) => and(rowOf(ref), eq(followerState.leader, ref.instanceId))
const leaseEnd = (ref: LeaseRef) => sql`now() + ${ref.leaseMs} * interval '1 millisecond'`

export async function readRow(ref: LeaseRef): Promise<StateRow | undefined> {
  const [row] = await ref.db.select().from(followerState).where(rowOf(ref))
  return row
}

/** Takes the lease when it is free or ours; answers the state row when this process leads. */
export async function takeLease(ref: LeaseRef): Promise<StateRow | null> {
  const { db, chain, instanceId } = ref
  const result = (await db.execute(sql`
    insert into ${followerState} (id, chain, checkpoint_block, checkpoint_time, leader, leader_until)
    values (${followerRowId(chain)}, ${chain}, -1, 0, ${instanceId}, ${leaseEnd(ref)})
    on conflict (id) do update set leader = excluded.leader, leader_until = excluded.leader_until
    where ${followerState.leader} = ${instanceId} or ${followerState.leaderUntil} is null
       or ${followerState.leaderUntil} < now()
    returning id`)) as unknown as { rows: unknown[] }
  if (result.rows.length === 0) return null
  return (await readRow(ref)) ?? null
}

export async function renewLease(ref: LeaseRef): Promise<boolean> {
  const rows = await ref.db
    .update(followerState)
    .set({ leaderUntil: leaseEnd(ref) })
    .where(ours(ref))
    .returning({ id: followerState.id })
  return rows.length > 0
}

/** Hands over at once instead of making the next leader wait for the lease to run out. */
export async function releaseLease(ref: LeaseRef): Promise<void> {
  await ref.db
    .update(followerState)
    .set({ leaderUntil: null })
    .where(ours(ref))
    .catch(() => {})
}

/** Raises the final head the row shows (never lowers it). */
export async function raiseSolidHead(ref: LeaseRef, number: number): Promise<void> {
  await ref.db
    .update(followerState)
    .set({ solidHead: sql`greatest(coalesce(${followerState.solidHead}, 0), ${number})` })
    .where(rowOf(ref))
}

/**
 * The follower stopped: a final block does not follow the checkpoint. Kept on the row (the first
 * time it stopped stays) until a block is recorded again.
 */
export async function recordHalt(ref: LeaseRef, reason: string): Promise<void> {
  await ref.db
    .update(followerState)
    .set({ haltedReason: reason, haltedAt: sql`coalesce(${followerState.haltedAt}, now())` })
    .where(rowOf(ref))
}

/**
 * The operator's way on after the follower stopped (decision 042): the chain is read again from
 * `fromBlock`, without checking that block's parent (the recorded block is no longer on the chain).
 * Transfers already in the ledger are not recorded twice. Run with the shop stopped: a running
 * follower keeps its stop until it restarts. Answers whether the chain had a row.
 */
export async function readChainAgainFrom(db: Db, chain: ChainId, fromBlock: number): Promise<boolean> {
  const rows = await db
    .update(followerState)
    .set({
      checkpointBlock: fromBlock - 1,
      checkpointBlockId: null,
      checkpointTime: 0,
      haltedReason: null,
      haltedAt: null,
      leader: null,
      leaderUntil: null,
      updatedAt: new Date(),
    })
    .where(ofChain(chain))
    .returning({ id: followerState.id })
  return rows.length > 0
}

/** A new database starts at the configured block or at the final head. */
export async function startCheckpoint(
  ref: LeaseRef,
  reads: FinalReads,
  startBlock: number | undefined,
  log: WorkerLogger,
): Promise<ChainError | null> {
  const unset = and(rowOf(ref), sql`${followerState.checkpointBlock} < 0`)
  if (startBlock !== undefined) {
    await ref.db
      .update(followerState)
      .set({ checkpointBlock: startBlock - 1, checkpointBlockId: null, checkpointTime: 0 })
      .where(unset)
    return null
  }
  const head = await reads.finalHead()
  if (head.status === 'error') return head
  await ref.db
    .update(followerState)
    .set({
      checkpointBlock: head.number,
      checkpointBlockId: head.hash,
      checkpointTime: head.timestamp,
      solidHead: head.number,
    })
    .where(unset)
  log.info({ block: head.number, chain: ref.chain }, 'chain follower starts at the final head')
  return null
}

/**
 * Moves the checkpoint past `fetched` and records, settles and expires what those blocks do, in one
 * transaction; throws LostLeadership (everything rolled back) when the row is no longer ours as read.
 */
export async function commitBlocks(
  ref: LeaseRef,
  state: StateRow,
  fetched: FinalBlock[],
  rules: PaymentRules,
): Promise<{ transfers: number; paid: string[]; expired: string[] }> {
  const last = fetched[fetched.length - 1] as FinalBlock
  return ref.db.transaction(async (tx) => {
    // The checkpoint moves first: the row lock orders two would-be leaders, and a process that
    // lost the lease or whose checkpoint moved meanwhile rolls everything back.
    const moved = await tx
      .update(followerState)
      .set({
        checkpointBlock: last.number,
        checkpointBlockId: last.hash,
        checkpointTime: last.timestamp,
        solidHead: sql`greatest(coalesce(${followerState.solidHead}, 0), ${last.number})`,
        leaderUntil: leaseEnd(ref),
        updatedAt: new Date(),
        haltedReason: null,
        haltedAt: null,
      })
      .where(and(ours(ref), eq(followerState.checkpointBlock, state.checkpointBlock)))
      .returning({ id: followerState.id })
    if (moved.length === 0) throw new LostLeadership()
    let transfers = 0
    const paid: string[] = []
    const expired: string[] = []
    for (const block of fetched) {
      // Nothing in this block or later can pay an order of this chain whose grace ended before it.
      expired.push(...(await expireOrdersBefore(tx, block.timestamp, rules.cooldownMs, ref.chain)))
      const done = await recordAndSettle(tx, block.transfers, rules)
      transfers += done.outcomes.filter((o) => o.kind !== 'known').length
      paid.push(...done.paid)
    }
    return { transfers, paid, expired }
  })
}
