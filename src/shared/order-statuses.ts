// An order's statuses. A paid order stays "paid" in every rule about money received (settling, the
// ledger, the buyer's status, revenue) after a refund: refunds are counted apart (src/server/refunds).

export const orderStatusValues = [
  'pending',
  'paid',
  'completed',
  'cancelled',
  // Set only by a refund proven on the chain: all the order received was refunded, or a part.
  'refunded',
  'partially_refunded',
] as const

export const paidStatuses = ['paid', 'completed', 'refunded', 'partially_refunded'] as const
export type PaidStatus = (typeof paidStatuses)[number]

/** Paid, completed, or refunded (wholly or in part) since. */
export function wasPaid(status: string): status is PaidStatus {
  return (paidStatuses as readonly string[]).includes(status)
}
