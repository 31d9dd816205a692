import { and, eq, isNotNull, isNull } from 'drizzle-orm'
import type { AdminLicence } from '../../shared/licences'
import type { Db } from '../db/client'
import { licenseInstances, licenseKeys } from '../db/schema'
import { recordLicenceEvents } from './licence-events'
import { licenceView, searchSoldKeys, soldKeyById, withInstances } from './licences.repo'

// The operator's actions on sold keys (the Licences view). Each answers false when the key id is
// not a sold key, so the admin call can say so.

export async function searchLicences(db: Db, query: string, limit: number): Promise<AdminLicence[]> {
  const keys = await searchSoldKeys(db, query, limit)
  return (await withInstances(db, keys)).map((entry) => ({
    ...licenceView(entry),
    id: entry.key.id,
    product_id: entry.key.productId,
    product_name: entry.key.productName,
    order_id: entry.key.orderId,
    email: entry.key.email,
    sold_at: entry.key.soldAt.toISOString(),
    disabled_by_operator: entry.key.operatorDisabledAt !== null,
    order_disabled_reason: entry.key.orderDisabledReason,
  }))
}

/** The operator's switch. Disabling records `license_key.disabled` unless its order had disabled it already. */
export async function setOperatorDisabled(db: Db, keyId: number, disabled: boolean): Promise<boolean> {
  return db.transaction(async (tx) => {
    const key = await soldKeyById(tx, keyId)
    if (!key) return false
    if (disabled && !key.operatorDisabledAt) {
      await tx
        .update(licenseKeys)
        .set({ operatorDisabledAt: new Date() })
        .where(and(eq(licenseKeys.id, keyId), isNull(licenseKeys.operatorDisabledAt)))
      if (!key.orderDisabledReason) {
        await recordLicenceEvents(tx, 'license_key.disabled', [keyId], { reason: 'operator' })
      }
    }
    if (!disabled && key.operatorDisabledAt) {
      await tx.update(licenseKeys).set({ operatorDisabledAt: null }).where(eq(licenseKeys.id, keyId))
    }
    return true
  })
}

/** Frees every seat of a key; answers how many were freed, or null for an unknown key. */
export async function resetActivations(db: Db, keyId: number): Promise<number | null> {
  return db.transaction(async (tx) => {
    const key = await soldKeyById(tx, keyId)
    if (!key) return null
    const removed = await tx
      .delete(licenseInstances)
      .where(eq(licenseInstances.licenseKeyId, keyId))
      .returning({ id: licenseInstances.id, name: licenseInstances.name })
    for (const instance of removed) {
      await recordLicenceEvents(tx, 'license_key.deactivated', [keyId], { instance, by: 'operator' })
    }
    return removed.length
  })
}

/** Sets a key's activation limit (null = unlimited) and expiry (null = never). */
export async function setLicenceTerms(
  db: Db,
  keyId: number,
  terms: { activationLimit: number | null; expiresAt: Date | null },
): Promise<boolean> {
  const rows = await db
    .update(licenseKeys)
    .set({ activationLimit: terms.activationLimit, expiresAt: terms.expiresAt, termsSet: true })
    .where(and(eq(licenseKeys.id, keyId), isNotNull(licenseKeys.orderId)))
    .returning({ id: licenseKeys.id })
  return rows.length === 1
}
