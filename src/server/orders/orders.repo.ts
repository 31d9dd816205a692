import { and, eq } from 'drizzle-orm'
import type { Db } from '../db/client'
import { orders } from '../db/schema'
import { releaseReservation } from '../keys/reservation'
import { releaseLease } from '../wallets/wallets.repo'

/**
 * The buyer gives up on a pending order: it is cancelled and its address is free at once.
 * Answers false when the order is unknown or no longer pending (paid orders are never cancelled here).
 */
export async function cancelPendingOrder(db: Db, orderId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(orders)
      .set({ status: 'cancelled', cancelledAt: new Date(), updatedAt: new Date() })
      .where(and(eq(orders.id, orderId), eq(orders.status, 'pending')))
      .returning({ id: orders.id })
    if (!row) return false
    await releaseLease(tx, orderId)
    await releaseReservation(tx, orderId)
    return true
  })
}
