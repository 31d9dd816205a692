import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { mailOutbox } from '../db/schema'

// The delivery module's outbox rows of an order, for the admin's actions on orders.

/** Queues the order's e-mails again: the outbox worker sends them on its next pass. */
export async function requeueOrderMail(db: Db, orderId: string): Promise<number> {
  const rows = await db
    .update(mailOutbox)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: sql`now()`, lastError: null })
    .where(eq(mailOutbox.orderId, orderId))
    .returning({ id: mailOutbox.id })
  return rows.length
}

/** An e-mail not sent yet goes with its deleted order; a sent one stays with the buyer anyway. */
export async function dropUnsentMail(tx: Db, orderId: string): Promise<void> {
  await tx.delete(mailOutbox).where(and(eq(mailOutbox.orderId, orderId), sql`${mailOutbox.status} <> 'sent'`))
}
