import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { licenseKeys } from '../db/schema'
import { recordLicenceEvents } from './licence-events'

// A licence key's state: the terms it was sold with (activation limit, expiry) and the two switches
// that disable it — the operator's, and its order's (cancelled, refunded). A key is `disabled`
// exactly when one of the two is set; the order's is set and cleared only through the functions
// below, which other modules call inside their own transactions.

export type LicenceStatus = 'inactive' | 'active' | 'expired' | 'disabled'

/** The status word of the licence API (Lemon Squeezy's): disabled, else expired, else by activations. */
export function licenceStatus(
  key: { operatorDisabledAt: Date | null; orderDisabledReason: string | null; expiresAt: Date | null },
  activations: number,
  now = new Date(),
): LicenceStatus {
  if (key.operatorDisabledAt || key.orderDisabledReason) return 'disabled'
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return 'expired'
  return activations > 0 ? 'active' : 'inactive'
}

/**
 * Disables every key of an order, for a reason its module names ('cancelled', 'refunded'); call it
 * in the transaction that changes the order. Keys already disabled by their order keep their first
 * reason. Records `license_key.disabled` for each key it disabled; answers how many.
 */
export async function disableKeysOfOrder(tx: Db, orderId: string, reason: string): Promise<number> {
  const rows = await tx
    .update(licenseKeys)
    .set({ orderDisabledReason: reason.slice(0, 64) })
    .where(and(eq(licenseKeys.orderId, orderId), isNull(licenseKeys.orderDisabledReason)))
    .returning({ id: licenseKeys.id, operatorDisabledAt: licenseKeys.operatorDisabledAt })
  // A key the operator had already disabled was not disabled now: no second event.
  const newlyDisabled = rows.filter((row) => !row.operatorDisabledAt).map((row) => row.id)
  await recordLicenceEvents(tx, 'license_key.disabled', newlyDisabled, { reason })
  return rows.length
}

/**
 * The inverse: clears the order's reason on its keys when it is `reason` (an order reopened after a
 * cancellation gets its keys back; a refund's reason stays). Answers how many keys it cleared.
 */
export async function enableKeysOfOrder(tx: Db, orderId: string, reason: string): Promise<number> {
  const rows = await tx
    .update(licenseKeys)
    .set({ orderDisabledReason: null })
    .where(and(eq(licenseKeys.orderId, orderId), eq(licenseKeys.orderDisabledReason, reason.slice(0, 64))))
    .returning({ id: licenseKeys.id })
  return rows.length
}

/**
 * Copies the products' licence terms onto the keys just handed out to an order (limit; expiry the
 * validity's days after the key was assigned). Once per key: keys that have their terms keep them.
 */
export async function applyLicenceTerms(tx: Db, orderId: string): Promise<void> {
  await tx.execute(sql`
    update ${licenseKeys} k set
      activation_limit = p.licence_activation_limit,
      expires_at = case when p.licence_validity_days is null then null
        else coalesce(k.assigned_at, now()) + make_interval(days => p.licence_validity_days) end,
      terms_set = true
    from products p
    where k.order_id = ${orderId} and not k.terms_set and p.id = k.product_id`)
  // Keys of products deleted since the sale have no terms to copy: unlimited, never expiring.
  await tx
    .update(licenseKeys)
    .set({ termsSet: true })
    .where(and(eq(licenseKeys.orderId, orderId), eq(licenseKeys.termsSet, false)))
}
