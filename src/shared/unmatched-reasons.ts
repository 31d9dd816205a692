// Why a transfer to one of our addresses pays no order: the ledger stores the reason
// (payments.reason), the admin panel shows it in the operator's language.

export const unmatchedReasons = [
  'no_order',
  'after_paid',
  'after_cancelled',
  'after_grace',
  'trx_without_rate',
  'zero_value',
  'order_deleted',
  'unassigned',
  // From a sender that paid another order at this address before: waits for the operator.
  'held_for_review',
  // The operator refused a held transfer: it pays no order until assigned.
  'reused_address',
] as const
export type UnmatchedReason = (typeof unmatchedReasons)[number]
