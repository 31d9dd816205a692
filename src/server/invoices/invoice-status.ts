import { isPaidStatus } from '../../shared/order-status'
import type { CancelReason, OrderStatus } from '../db/schema'
import type { AdditionalStatus, InvoiceStatus } from './greenfield-schemas'

// An invoice's Greenfield status, read from its order's real state (the one money path decides it;
// nothing here changes anything):
//   Settled     the order is paid (or completed, or refunded later: it was paid), or marked so
//   Processing  open, and what was received, held for review or seen at the head covers the amount
//   New         open, in its payment window, not covered yet (PaidPartial once something came)
//   Expired     its window ended unpaid (PaidPartial when part came), or the buyer cancelled it
//   Invalid     the operator cancelled it, or marked it invalid
// additionalStatus: Marked when the operator marked it through the API, PaidLate when the paying
// transfer came in the grace time after the window, PaidOver when more than the amount came,
// PaidPartial when less came, else None.

export interface InvoiceFacts {
  status: OrderStatus
  cancelReason: CancelReason | null
  late: boolean
  windowEndsAt: Date
  /** Dollars credited to the order, in micro-dollars (TRX at its locked rate). */
  receivedMicros: bigint
  dueMicros: bigint
  /** A transfer to it waits for the operator's review (decision 020). */
  held: boolean
  /** Micro-dollars seen at the head and not final yet. */
  confirmingMicros: bigint
  /** The shortfall the shop's tolerance accepts on this amount. */
  acceptedShortfallMicros: bigint
  marked: 'Invalid' | 'Settled' | null
}

export function invoiceStatusOf(
  f: InvoiceFacts,
  now: Date,
): { status: InvoiceStatus; additionalStatus: AdditionalStatus } {
  const paid = isPaidStatus(f.status)
  const over = f.receivedMicros > f.dueMicros
  const partial = f.receivedMicros > 0n && !paid
  if (f.marked === 'Invalid' && !paid) return { status: 'Invalid', additionalStatus: 'Marked' }
  if (paid) {
    if (f.marked === 'Settled') return { status: 'Settled', additionalStatus: 'Marked' }
    return { status: 'Settled', additionalStatus: f.late ? 'PaidLate' : over ? 'PaidOver' : 'None' }
  }
  if (f.status === 'cancelled') {
    if (f.cancelReason === 'admin')
      return { status: 'Invalid', additionalStatus: partial ? 'PaidPartial' : 'None' }
    return { status: 'Expired', additionalStatus: partial ? 'PaidPartial' : 'None' }
  }
  const covered = f.receivedMicros + f.confirmingMicros + f.acceptedShortfallMicros >= f.dueMicros
  if (f.held || (f.confirmingMicros > 0n && covered))
    return { status: 'Processing', additionalStatus: 'None' }
  if (now.getTime() >= f.windowEndsAt.getTime()) {
    return { status: 'Expired', additionalStatus: partial ? 'PaidPartial' : 'None' }
  }
  return { status: 'New', additionalStatus: partial ? 'PaidPartial' : 'None' }
}

/** What the operator may mark an invoice as (Greenfield's availableStatusesForManualMarking). */
export function markableStatuses(status: InvoiceStatus, orderStatus: OrderStatus): InvoiceStatus[] {
  if (orderStatus === 'refunded' || orderStatus === 'partially_refunded') return []
  if (status === 'Settled') return []
  if (status === 'Invalid') return ['Settled']
  return ['Settled', 'Invalid']
}
