import { formatCents } from '../../shared/money'
import type { discountCodes, OrderItemSnapshot } from '../db/schema'
import { type Refusal, refusal } from '../i18n/refusals'

// What a code takes off a cart, by integer arithmetic only. The same rules answer the checkout's
// check and place the order; only the order's placement counts the uses under the code's lock.

export type DiscountCodeRow = typeof discountCodes.$inferSelect

export type Evaluation = { ok: true; discountCents: number } | { ok: false; error: Refusal }

/** Orders already holding a use of the code: all of them, and those of the buyer's e-mail. */
export interface UsesHeld {
  total: number
  byEmail: number
}

export function subtotalOf(items: readonly OrderItemSnapshot[]): number {
  return items.reduce((sum, item) => sum + item.product.price_cents * item.quantity, 0)
}

/**
 * The discount a code gives the lines at `now`, or why it is refused. Without `uses`, the usage
 * limits are not checked (a preview that cannot know what other buyers are doing).
 */
export function evaluateDiscount(
  code: DiscountCodeRow,
  items: readonly OrderItemSnapshot[],
  now: Date,
  uses?: UsesHeld,
): Evaluation {
  if (code.disabled) return { ok: false, error: refusal('discount.unknown') }
  if (code.startsAt && now < code.startsAt) return { ok: false, error: refusal('discount.notStarted') }
  if (code.endsAt && now >= code.endsAt) return { ok: false, error: refusal('discount.expired') }
  const scope = code.productIds && code.productIds.length > 0 ? new Set(code.productIds) : null
  const subtotal = subtotalOf(items)
  const eligible = subtotalOf(items.filter((item) => !scope || scope.has(item.product.id)))
  if (eligible <= 0) return { ok: false, error: refusal('discount.notForProducts') }
  if (code.minTotalCents !== null && subtotal < code.minTotalCents)
    return {
      ok: false,
      error: refusal('discount.minimum', { amount: `$${formatCents(code.minTotalCents)}` }),
    }
  if (uses && code.maxUses !== null && uses.total >= code.maxUses)
    return { ok: false, error: refusal('discount.usedUp') }
  if (uses && code.maxUsesPerEmail !== null && uses.byEmail >= code.maxUsesPerEmail)
    return { ok: false, error: refusal('discount.usedByEmail') }
  // Rounded down: a percentage never takes off a cent more than it says.
  let discount =
    code.kind === 'percent'
      ? Number((BigInt(eligible) * BigInt(code.percentBp ?? 0)) / 10_000n)
      : Math.min(code.amountCents ?? 0, eligible)
  if (code.maxDiscountCents !== null) discount = Math.min(discount, code.maxDiscountCents)
  if (discount >= subtotal) return { ok: false, error: refusal('discount.toZero') }
  return { ok: true, discountCents: discount }
}
