import { inArray } from 'drizzle-orm'
import type { Db } from '../db/client'
import { licenseKeys } from '../db/schema'
import { recordEvents } from '../webhooks/events'

export type LicenceEvent = 'license_key.activated' | 'license_key.deactivated' | 'license_key.disabled'

/** The key as events and logs show it: its last group only ("XXXXX-…-7QK2P"), never the whole key. */
export function shortKey(key: string): string {
  return `XXXX-${key.slice(-5)}`
}

/**
 * Records one licence event per key, in the caller's transaction: the key's id, its short form,
 * product and order, and what `extra` adds (the instance, the reason).
 */
export async function recordLicenceEvents(
  tx: Db,
  type: LicenceEvent,
  keyIds: readonly number[],
  extra: Record<string, unknown> = {},
): Promise<void> {
  if (keyIds.length === 0) return
  const rows = await tx
    .select({
      id: licenseKeys.id,
      key: licenseKeys.key,
      productId: licenseKeys.productId,
      orderId: licenseKeys.orderId,
    })
    .from(licenseKeys)
    .where(inArray(licenseKeys.id, [...keyIds]))
  await recordEvents(
    tx,
    type,
    rows.map((row) => ({
      data: {
        license_key_id: row.id,
        key_short: shortKey(row.key),
        product_id: row.productId,
        order_id: row.orderId,
        ...extra,
      },
    })),
  )
}
