import { isPaidStatus } from '../../shared/order-status'
import { receivedUsdMicros } from '../../shared/trx'
import type { Db } from '../db/client'
import { fulfilOrder, newAccessToken } from '../delivery/fulfil-order'
import { lockOrder, markOrderPaid, setOrderReceived } from '../orders/orders.repo'
import { releaseAddress } from '../wallets/wallets.repo'
import { creditedTotals, type ObservedTransfer, type RecordOutcome, recordTransfer } from './ledger'
import { acceptedShortfallMicros, type PaymentRules } from './payment-rules'

// The one path to "paid". Five ways reach it, each inside its own transaction: the chain
// follower, the buyer's transaction hash, the admin's status change, the admin's assignment of an
// unmatched transfer, and the admin's release of an order held for review (payment-admin.ts): the order is marked paid, keeps (or gets) its dashboard token, its address starts
// its cool-down, and its keys and e-mail are handed out, all of it once. Calling it again for a
// paid order changes nothing: it must stay idempotent.

export type SettleOutcome =
  | { kind: 'unknown_order' }
  | { kind: 'already_paid'; accessToken: string | null }
  | { kind: 'open'; receivedMicros: bigint; dueMicros: bigint }
  | {
      kind: 'paid'
      accessToken: string
      receivedMicros: bigint
      txHash: string | null
      paidAt: Date
      late: boolean
    }

const MICROS_PER_CENT = 10_000n

/**
 * Brings the order in line with what the ledger credits to it. With `manual` (the admin checked a
 * payment by hand) the order is paid whatever the ledger holds.
 */
export async function settleOrder(
  tx: Db,
  orderId: string,
  rules: PaymentRules,
  opts: { manual?: boolean } = {},
): Promise<SettleOutcome> {
  const order = await lockOrder(tx, orderId)
  if (!order) return { kind: 'unknown_order' }
  const totals = await creditedTotals(tx, orderId)
  const recordedOk =
    totals.stableMicros === order.amountReceivedUnits && totals.trxSun === order.nativeReceivedUnits
  if (isPaidStatus(order.status)) {
    // A transfer the admin assigned to a paid order still shows in what it received.
    if (!recordedOk) await setOrderReceived(tx, orderId, totals.stableMicros, totals.trxSun)
    return { kind: 'already_paid', accessToken: order.accessToken }
  }
  const receivedMicros = receivedUsdMicros(totals.stableMicros, totals.trxSun, order.nativeRateE8)
  const dueMicros = BigInt(order.totalCents) * MICROS_PER_CENT
  if (!opts.manual && receivedMicros + acceptedShortfallMicros(dueMicros, rules) < dueMicros) {
    if (!recordedOk) await setOrderReceived(tx, orderId, totals.stableMicros, totals.trxSun)
    return { kind: 'open', receivedMicros, dueMicros }
  }

  // Paid when the completing transfer was made (chain time), or now for a payment checked by hand.
  const paidAt =
    !opts.manual && totals.lastBlockTimestamp !== null ? new Date(totals.lastBlockTimestamp) : new Date()
  const accessToken = await markOrderPaid(tx, orderId, {
    usdtUnits: totals.stableMicros,
    trxSun: totals.trxSun,
    txHash: totals.lastTxId,
    paidAt,
    late: totals.late,
    accessToken: newAccessToken(),
  })
  if (order.status === 'pending') await releaseAddress(tx, orderId, paidAt, rules.cooldownMs, { paid: true })
  await fulfilOrder(tx, orderId, rules.fulfil)
  return { kind: 'paid', accessToken, receivedMicros, txHash: totals.lastTxId, paidAt, late: totals.late }
}

/**
 * Records transfers read from the chain (in block order) and settles every order one of them was
 * credited to: the one step the chain follower and the buyer's transaction hash share, inside the
 * caller's transaction. Answers each transfer's outcome, in order, and the orders it made paid.
 */
export async function recordAndSettle(
  tx: Db,
  transfers: readonly ObservedTransfer[],
  rules: PaymentRules,
): Promise<{ outcomes: RecordOutcome[]; paid: string[] }> {
  const outcomes: RecordOutcome[] = []
  const touched = new Set<string>()
  for (const t of transfers) {
    const outcome = await recordTransfer(tx, t)
    outcomes.push(outcome)
    if (outcome.kind === 'credited') touched.add(outcome.orderId)
  }
  const paid: string[] = []
  for (const orderId of touched) {
    const settled = await settleOrder(tx, orderId, rules)
    if (settled.kind === 'paid') paid.push(orderId)
  }
  return { outcomes, paid }
}
