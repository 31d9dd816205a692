import { randomBytes } from 'node:crypto'
import { and, eq, isNotNull, sql } from 'drizzle-orm'
import { receivedUsdMicros } from '../../shared/trx'
import type { Db } from '../db/client'
import { orders, payments, walletAddresses } from '../db/schema'
import { type FulfilContext, fulfilOrder } from '../delivery/fulfil-order'
import { releaseReservation } from '../keys/reservation'
import { releaseLease } from '../wallets/wallets.repo'

// The one place that decides whether transfers pay an order (DESIGN.md §5). The watcher and
// secure_confirm_transaction both come here, so a transfer is judged by the same rules whichever
// way it arrives, and an order is confirmed in one transaction at most once.

/** A transfer into one of our addresses as the explorer reported it (already checked for token and type). */
export interface SeenTransfer {
  txId: string
  token: 'USDT' | 'TRX'
  from: string
  to: string
  /** USDT base units (6 decimals) or sun. */
  value: bigint
  /** Block time, ms. */
  blockTimestamp: number
}

export interface CreditOptions {
  /** Allowed shortfall in micro-dollars (PAYMENT_TOLERANCE × 10^6). */
  toleranceMicros: bigint
  /** What the goods' hand-out needs (the dashboard link's base). */
  fulfil: FulfilContext
}

export type CreditOutcome =
  | { kind: 'unknown_order' }
  /** The order was already paid, completed or cancelled; transfers were stored unmatched when new. */
  | { kind: 'not_pending'; status: string }
  | { kind: 'pending'; receivedMicros: bigint; credited: string[] }
  | {
      kind: 'paid'
      receivedMicros: bigint
      credited: string[]
      accessToken: string
      txHash: string
      paidAt: Date
      late: boolean
    }

const MICROS_PER_CENT = 10_000n

/** 192 random bits, URL-safe: the buyer's dashboard token. */
export function newAccessToken(): string {
  return randomBytes(24).toString('base64url')
}

/** PAYMENT_TOLERANCE (dollars, as configured) to micro-dollars without binary floating point. */
export function toleranceToMicros(tolerance: number): bigint {
  const text = String(tolerance)
  const match = /^(\d+)(?:\.(\d{1,6})\d*)?$/.exec(text)
  if (!match) throw new TypeError(`tolerance must be a non-negative decimal, got ${text}`)
  return BigInt(match[1] ?? '0') * 1_000_000n + BigInt((match[2] ?? '').padEnd(6, '0'))
}

/** Sums several transfers of one transaction to one address (a batch can hold more than one). */
function groupTransfers(seen: readonly SeenTransfer[]): SeenTransfer[] {
  const byKey = new Map<string, SeenTransfer>()
  for (const t of seen) {
    const key = `${t.txId.toLowerCase()}|${t.to}|${t.token}`
    const prior = byKey.get(key)
    byKey.set(key, prior ? { ...prior, value: prior.value + t.value } : { ...t, txId: t.txId.toLowerCase() })
  }
  return [...byKey.values()].sort((a, b) => a.blockTimestamp - b.blockTimestamp)
}

/**
 * Records the transfers seen for an order and confirms it when what arrived covers the total.
 * Runs in one transaction holding the order's row lock, so concurrent watchers (or a watcher and a
 * buyer's confirm call) serialise here; payment rows are unique per transaction, address and token.
 */
export async function creditTransfers(
  db: Db,
  orderId: string,
  seen: readonly SeenTransfer[],
  opts: CreditOptions,
): Promise<CreditOutcome> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update')
    if (!order) return { kind: 'unknown_order' }
    const [address] = await tx
      .select({ lastPaymentTs: walletAddresses.lastPaymentTs })
      .from(walletAddresses)
      .where(eq(walletAddresses.address, order.walletAddress))
    const createdMs = order.createdAt.getTime()
    const graceMs = order.graceUntil.getTime()
    const expiresMs = order.expiresAt.getTime()
    const lastPaymentTs = address?.lastPaymentTs ?? null
    const pending = order.status === 'pending'
    const credited: string[] = []

    for (const t of groupTransfers(seen)) {
      // Older than the order: it paid something else, or nothing of ours.
      if (t.to !== order.walletAddress || t.blockTimestamp <= createdMs) continue
      const [known] = await tx
        .select({ id: payments.id })
        .from(payments)
        .where(and(eq(payments.txId, t.txId), eq(payments.toAddress, t.to), eq(payments.token, t.token)))
      if (known) continue
      const [usedElsewhere] = await tx
        .select({ id: payments.id })
        .from(payments)
        .where(and(eq(payments.txId, t.txId), isNotNull(payments.orderId)))
      const creditable =
        pending &&
        !usedElsewhere &&
        t.blockTimestamp <= graceMs &&
        (lastPaymentTs === null || t.blockTimestamp > lastPaymentTs) &&
        (t.token === 'USDT' || order.trxRateE8 !== null)
      const row = {
        txId: t.txId,
        token: t.token,
        amountUnits: t.value,
        fromAddress: t.from,
        toAddress: t.to,
        blockTimestamp: t.blockTimestamp,
        late: t.blockTimestamp > expiresMs,
      }
      if (creditable) {
        const inserted = await tx
          .insert(payments)
          .values({ ...row, orderId: order.id })
          .onConflictDoNothing()
          .returning({ id: payments.id })
        if (inserted.length > 0) {
          credited.push(t.txId)
          continue
        }
      }
      // Never dropped: the admin sees it among the unmatched transfers and can assign it.
      await tx
        .insert(payments)
        .values({ ...row, orderId: null })
        .onConflictDoNothing()
    }

    if (!pending) return { kind: 'not_pending', status: order.status }

    const sums = (await tx.execute(sql`
      select token, coalesce(sum(amount_units), 0)::text as units, max(block_timestamp)::text as last_ts,
             bool_or(late) as late
      from ${payments} where order_id = ${order.id} group by token`)) as unknown as {
      rows: { token: 'USDT' | 'TRX'; units: string; last_ts: string; late: boolean }[]
    }
    const usdtUnits = BigInt(sums.rows.find((r) => r.token === 'USDT')?.units ?? '0')
    const trxSun = BigInt(sums.rows.find((r) => r.token === 'TRX')?.units ?? '0')
    const receivedMicros = receivedUsdMicros(usdtUnits, trxSun, order.trxRateE8)
    const dueMicros = BigInt(order.totalCents) * MICROS_PER_CENT

    if (receivedMicros + opts.toleranceMicros < dueMicros) {
      if (credited.length > 0) {
        await tx
          .update(orders)
          .set({ amountReceivedUnits: usdtUnits, trxReceivedSun: trxSun, updatedAt: new Date() })
          .where(eq(orders.id, order.id))
      }
      return { kind: 'pending', receivedMicros, credited }
    }

    // Paid. The hash shown is the transfer that completed the payment.
    const [last] = await tx
      .select({ txId: payments.txId, blockTimestamp: payments.blockTimestamp })
      .from(payments)
      .where(eq(payments.orderId, order.id))
      .orderBy(sql`${payments.blockTimestamp} desc, ${payments.id} desc`)
      .limit(1)
    const txHash = last?.txId ?? credited[credited.length - 1] ?? ''
    const paidAt = new Date(last?.blockTimestamp ?? Date.now())
    const late = sums.rows.some((r) => r.late)
    const accessToken = newAccessToken()
    await tx
      .update(orders)
      .set({
        status: 'paid',
        amountReceivedUnits: usdtUnits,
        trxReceivedSun: trxSun,
        txHash,
        paidAt,
        late,
        accessToken,
        watchedUntil: null,
        updatedAt: new Date(),
      })
      .where(eq(orders.id, order.id))
    await releaseLease(tx, order.id)
    const lastTs = Math.max(...sums.rows.map((r) => Number(r.last_ts)))
    await tx
      .update(walletAddresses)
      .set({ lastPaymentTs: sql`greatest(coalesce(${walletAddresses.lastPaymentTs}, 0), ${lastTs})` })
      .where(eq(walletAddresses.address, order.walletAddress))
    await fulfilOrder(tx, order.id, opts.fulfil)
    return { kind: 'paid', receivedMicros, credited, accessToken, txHash, paidAt, late }
  })
}

/**
 * The grace period is over and a last look at the chain found nothing that pays: the order is
 * cancelled and its address goes back to the pool. False when the order was paid meanwhile.
 */
export async function expireUnpaidOrder(db: Db, orderId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(orders)
      .set({ status: 'cancelled', cancelledAt: new Date(), watchedUntil: null, updatedAt: new Date() })
      .where(and(eq(orders.id, orderId), eq(orders.status, 'pending'), sql`${orders.graceUntil} <= now()`))
      .returning({ id: orders.id })
    if (!row) return false
    await releaseLease(tx, orderId)
    await releaseReservation(tx, orderId)
    return true
  })
}
