import { and, eq, inArray, isNotNull, lt, ne, sql } from 'drizzle-orm'
import type { ChainId, TokenSymbol } from '../../shared/chains'
import { isPaidStatus } from '../../shared/order-status'
import { toShortfallUnits } from '../../shared/token-amount'
import { type ChainTransfer, stableUnitsToMicros } from '../chains/chain'
import { decimalsOf, tableToken } from '../chains/token-table'
import type { Db } from '../db/client'
import { orders, payments, type UnmatchedReason } from '../db/schema'
import { alertUnmatchedPayment } from '../notifications/shop-alerts'
import { leaseAt, noteAddressUse } from '../wallets/wallets.repo'
import { recordUnmatchedPayment } from '../webhooks/events'

// The ledger: every genuine transfer into one of our addresses is stored once, keyed by transaction
// id, source and index, and lands in exactly one place: a payment of the order that held the address
// at the transfer's block time, or unmatched with a reason the operator can read. The chain follower
// and the buyer's "I already paid" both record through recordAndSettle (settle-order.ts), so a transfer is judged by
// the same rules whichever way it arrives, and a replay of either is a no-op.

/** A transfer into one of our addresses, as read from the chain (TRON's when it names no chain). */
export type ObservedTransfer = ChainTransfer

export type RecordOutcome =
  | { kind: 'known'; paymentId: number; orderId: string | null; credited: boolean }
  | { kind: 'credited'; paymentId: number; orderId: string }
  | { kind: 'unmatched'; paymentId: number; orderId: string | null; reason: UnmatchedReason }

/**
 * Stores a transfer (once) and decides where it lands. Call inside a transaction; the caller
 * settles the order afterwards when the outcome is 'credited'.
 */
export async function recordTransfer(tx: Db, t: ObservedTransfer): Promise<RecordOutcome> {
  // The id comes in its family's normal form (ChainAdapter.normalizeTxHash): a hex hash in lower
  // case, a case-sensitive id (a base58 signature) as the chain writes it. Never changed here.
  const { txId, chain } = t
  const sameEvent = and(
    eq(payments.chain, chain),
    eq(payments.txId, txId),
    eq(payments.source, t.source),
    eq(payments.eventIndex, t.eventIndex),
  )
  const [known] = await tx
    .select({ id: payments.id, orderId: payments.orderId, status: payments.status })
    .from(payments)
    .where(sameEvent)
  if (known)
    return {
      kind: 'known',
      paymentId: known.id,
      orderId: known.orderId,
      credited: known.status === 'credited',
    }

  const decision = await attribute(tx, t)
  const [row] = await tx
    .insert(payments)
    .values({
      chain,
      txId,
      source: t.source,
      eventIndex: t.eventIndex,
      token: t.token,
      amountUnits: t.value,
      fromAddress: t.from,
      toAddress: t.to,
      blockNumber: t.blockNumber,
      blockTimestamp: t.blockTimestamp,
      orderId: decision.orderId,
      status: decision.kind,
      reason: decision.kind === 'unmatched' ? decision.reason : null,
      late: decision.late,
    })
    // Another process recorded it a moment ago: same key, same transfer.
    .onConflictDoNothing()
    .returning({ id: payments.id })
  if (!row) {
    const [other] = await tx
      .select({ id: payments.id, orderId: payments.orderId, status: payments.status })
      .from(payments)
      .where(sameEvent)
    return {
      kind: 'known',
      paymentId: other?.id ?? 0,
      orderId: other?.orderId ?? null,
      credited: other?.status === 'credited',
    }
  }
  await noteAddressUse(tx, t.to, new Date(t.blockTimestamp))
  if (decision.kind === 'credited') return { kind: 'credited', paymentId: row.id, orderId: decision.orderId }
  // Webhook and operator alert, in this transaction. Zero-value spam is recorded but not announced.
  if (decision.reason !== 'zero_value') {
    const transfer = {
      chain,
      txId,
      token: t.token,
      amountUnits: t.value,
      fromAddress: t.from,
      toAddress: t.to,
      reason: decision.reason,
      orderId: decision.orderId,
    }
    await recordUnmatchedPayment(tx, transfer)
    await alertUnmatchedPayment(tx, transfer)
  }
  return { kind: 'unmatched', paymentId: row.id, orderId: decision.orderId, reason: decision.reason }
}

type Decision =
  | { kind: 'credited'; orderId: string; late: boolean }
  | { kind: 'unmatched'; orderId: string | null; reason: UnmatchedReason; late: boolean }

async function attribute(tx: Db, t: ObservedTransfer): Promise<Decision> {
  const lease = await leaseAt(tx, t.to, t.blockTimestamp)
  if (!lease) return { kind: 'unmatched', orderId: null, reason: 'no_order', late: false }
  const [order] = await tx
    .select({
      id: orders.id,
      status: orders.status,
      cancelReason: orders.cancelReason,
      windowEndsAt: orders.windowEndsAt,
      graceUntil: orders.graceUntil,
      paidAt: orders.paidAt,
      nativeRateE8: orders.nativeRateE8,
    })
    .from(orders)
    .where(eq(orders.id, lease.orderId))
  if (!order) return { kind: 'unmatched', orderId: null, reason: 'order_deleted', late: false }
  const unmatched = (reason: UnmatchedReason): Decision => ({
    kind: 'unmatched',
    orderId: order.id,
    reason,
    late: false,
  })
  const at = t.blockTimestamp
  const late = at > order.windowEndsAt.getTime()
  const paid = isPaidStatus(order.status)
  // Block time decides, not the order in which transfers reach the ledger: one made at or before
  // the moment the order was paid is part of its payment, whoever recorded the other one first.
  const afterPaid = paid && (order.paidAt === null || at > order.paidAt.getTime())

  // Anyone can send a zero-value token transfer to any address; it never pays anything.
  if (t.value <= 0n) return unmatched('zero_value')
  // Sent while the address was resting after the order ended.
  if (lease.endedAt && at > lease.endedAt.getTime()) {
    if (paid) return unmatched('after_paid')
    if (order.cancelReason === 'expired') return unmatched('after_grace')
    return unmatched('after_cancelled')
  }
  if (afterPaid) return unmatched('after_paid')
  if (at > order.graceUntil.getTime()) return unmatched('after_grace')
  if (tableToken(t.chain, t.token)?.kind === 'native' && order.nativeRateE8 === null)
    return unmatched('trx_without_rate')
  // An address goes to a new order after its cool-down; a payer of an earlier order who sends to it
  // again from their wallet history would pay a stranger's order. Such a transfer waits for the
  // operator instead of delivering.
  if (await senderPaidAnotherOrderHere(tx, t, order.id)) return unmatched('held_for_review')
  return { kind: 'credited', orderId: order.id, late }
}

async function senderPaidAnotherOrderHere(tx: Db, t: ObservedTransfer, orderId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.toAddress, t.to),
        lt(payments.blockTimestamp, t.blockTimestamp),
        eq(payments.fromAddress, t.from),
        isNotNull(payments.orderId),
        ne(payments.orderId, orderId),
      ),
    )
    .limit(1)
  return Boolean(row)
}

const heldFor = (orderId: string) =>
  and(eq(payments.orderId, orderId), eq(payments.status, 'unmatched'), eq(payments.reason, 'held_for_review'))

/** Which of these orders hold a transfer waiting for the operator's review. */
export async function heldOrderIds(db: Db, orderIds: readonly string[]): Promise<Set<string>> {
  if (orderIds.length === 0) return new Set()
  const rows = await db
    .selectDistinct({ orderId: payments.orderId })
    .from(payments)
    .where(
      and(
        inArray(payments.orderId, [...orderIds]),
        eq(payments.status, 'unmatched'),
        eq(payments.reason, 'held_for_review'),
      ),
    )
  return new Set(rows.map((r) => r.orderId as string))
}

/** Whether a transfer of this transaction to the order waits for review. */
export async function heldInTransaction(
  db: Db,
  txId: string,
  orderId: string,
  chain: ChainId,
): Promise<boolean> {
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(heldFor(orderId), eq(payments.chain, chain), eq(payments.txId, txId)))
    .limit(1)
  return Boolean(row)
}

/**
 * The operator's decision on an order's held transfers: 'release' credits them to it (the caller
 * settles the order), 'refuse' leaves them unmatched as sent to a reused address, to be assigned
 * elsewhere or refunded. Answers how many transfers were decided.
 */
export async function decideHeld(tx: Db, orderId: string, decision: 'release' | 'refuse'): Promise<number> {
  const rows = await tx
    .update(payments)
    .set(decision === 'release' ? { status: 'credited', reason: null } : { reason: 'reused_address' })
    .where(heldFor(orderId))
    .returning({ id: payments.id })
  return rows.length
}

/**
 * Sums of what the ledger credits to an order — stablecoins in micro-dollars (each chain's token at
 * its own decimals), TRX in sun — and whether any of it came late.
 */
export async function creditedTotals(
  tx: Db,
  orderId: string,
): Promise<{
  stableMicros: bigint
  trxSun: bigint
  late: boolean
  lastTxId: string | null
  lastBlockTimestamp: number | null
}> {
  const sums = (await tx.execute(sql`
    select chain, token, coalesce(sum(amount_units), 0)::text as units, bool_or(late) as late
    from ${payments} where order_id = ${orderId} and status = 'credited' group by chain, token`)) as unknown as {
    rows: { chain: ChainId; token: TokenSymbol; units: string; late: boolean }[]
  }
  let stableMicros = 0n
  let trxSun = 0n
  for (const r of sums.rows) {
    if (r.token === 'TRX') trxSun += BigInt(r.units)
    else stableMicros += stableUnitsToMicros(BigInt(r.units), decimalsOf(r.chain, r.token))
  }
  const [last] = await tx
    .select({ txId: payments.txId, blockTimestamp: payments.blockTimestamp })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, 'credited')))
    .orderBy(sql`${payments.blockTimestamp} desc, ${payments.id} desc`)
    .limit(1)
  return {
    stableMicros,
    trxSun,
    late: sums.rows.some((r) => r.late),
    lastTxId: last?.txId ?? null,
    lastBlockTimestamp: last?.blockTimestamp ?? null,
  }
}

/** The stablecoins credited to an order, exactly, at SHORTFALL_DECIMALS (each chain's token at its own decimals). */
export async function creditedStableExact(db: Db, orderId: string): Promise<bigint> {
  const sums = (await db.execute(sql`
    select chain, token, coalesce(sum(amount_units), 0)::text as units
    from ${payments} where order_id = ${orderId} and status = 'credited' and token <> 'TRX'
    group by chain, token`)) as unknown as { rows: { chain: ChainId; token: TokenSymbol; units: string }[] }
  let total = 0n
  for (const r of sums.rows) total += toShortfallUnits(BigInt(r.units), decimalsOf(r.chain, r.token))
  return total
}

/** A transaction already credited to an order other than `orderId` (the buyer's hash check). */
export async function creditedElsewhere(
  db: Db,
  txId: string,
  orderId: string,
  chain: ChainId,
): Promise<boolean> {
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.chain, chain),
        eq(payments.txId, txId),
        eq(payments.status, 'credited'),
        sql`${payments.orderId} <> ${orderId}`,
      ),
    )
    .limit(1)
  return Boolean(row)
}

/** Whether the transaction pays this order (any of its transfers credited to it). */
export async function paysOrder(db: Db, txId: string, orderId: string, chain: ChainId): Promise<boolean> {
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.chain, chain),
        eq(payments.txId, txId),
        eq(payments.orderId, orderId),
        eq(payments.status, 'credited'),
      ),
    )
    .limit(1)
  return Boolean(row)
}

/**
 * The admin attaches an unmatched transfer to an order: it becomes that order's payment. Answers
 * 'credited' when it was unmatched (the caller settles the order), else why not.
 */
export async function creditUnmatched(
  tx: Db,
  paymentId: number,
  orderId: string,
): Promise<'credited' | 'no_payment' | 'already_credited'> {
  const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update')
  if (!row) return 'no_payment'
  if (row.status === 'credited') return 'already_credited'
  await tx
    .update(payments)
    .set({ status: 'credited', orderId, reason: null })
    .where(eq(payments.id, paymentId))
  return 'credited'
}

/** Before an order is deleted: its transfers stay in the ledger, unmatched, so no money disappears. */
export async function detachOrderPayments(tx: Db, orderId: string): Promise<void> {
  await tx
    .update(payments)
    .set({ status: 'unmatched', reason: 'order_deleted', orderId: null })
    .where(eq(payments.orderId, orderId))
}
