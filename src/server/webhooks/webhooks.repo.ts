import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { webhookDeliveries, webhookEndpoints } from '../db/schema'

// The webhooks module's writes for the admin's calls: endpoints added, changed and deleted, and a
// delivery queued again. (Events are written by events.ts, deliveries sent by delivery-worker.ts.)

export interface EndpointFields {
  url: string
  events: string[]
  includeKeys: boolean
  enabled: boolean
}

/** A new endpoint with its signing secret; answers its id. */
export async function addEndpoint(db: Db, fields: EndpointFields, secret: string): Promise<number> {
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ ...fields, secret })
    .returning({ id: webhookEndpoints.id })
  return row?.id as number
}

/** Changes an endpoint (never its secret); answers false when there is no such endpoint. */
export async function updateEndpoint(db: Db, id: number, fields: EndpointFields): Promise<boolean> {
  const rows = await db
    .update(webhookEndpoints)
    .set({ ...fields, updatedAt: new Date() })
    .where(eq(webhookEndpoints.id, id))
    .returning({ id: webhookEndpoints.id })
  return rows.length > 0
}

/** Deletes an endpoint with its delivery log; answers false when there is no such endpoint. */
export async function deleteEndpoint(db: Db, id: number): Promise<boolean> {
  const deleted = await db.transaction(async (tx) => {
    await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id))
    return tx
      .delete(webhookEndpoints)
      .where(eq(webhookEndpoints.id, id))
      .returning({ id: webhookEndpoints.id })
  })
  return deleted.length > 0
}

/** Queues a delivery again: same row, same event id and body, so a receiver that has it can drop it. */
export async function requeueDelivery(db: Db, id: number): Promise<boolean> {
  const rows = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: sql`now()`, createdAt: sql`now()` })
    .where(eq(webhookDeliveries.id, id))
    .returning({ id: webhookDeliveries.id })
  return rows.length > 0
}
