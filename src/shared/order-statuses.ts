// An order's statuses. Which of them count as paid for: PAID_STATUSES and isPaidStatus in
// order-status.ts.

export const orderStatusValues = [
  'pending',
  'paid',
  'completed',
  'cancelled',
  // Set only by a refund proven on the chain: all the order received was refunded, or a part.
  'refunded',
  'partially_refunded',
] as const
