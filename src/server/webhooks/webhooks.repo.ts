import { and, desc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm'
import type { AdminWebhookDelivery, AdminWebhookEndpoint } from '../../shared/webhooks'
import type { Db } from '../db/client'
import { webhookDeliveries, webhookEndpoints } from '../db/schema'

// The webhooks module's reads and writes for the admin's calls: endpoints listed, added, changed and
// deleted, a delivery log, and a delivery queued again. (Events are written by events.ts, deliveries
// sent by delivery-worker.ts.)

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString())

type EndpointKind = 'stablecart' | 'greenfield' | 'epusdt'

/** A column of an endpoint's newest delivery (d), for a subquery of the endpoint list. */
const newest = (column: SQL) =>
  sql`select ${column} from ${webhookDeliveries} d where d.endpoint_id = ${webhookEndpoints.id} order by d.id desc limit 1`

/** Every endpoint of a kind, oldest first, with its pending and failed counts and its newest delivery (never the secret). */
export async function listEndpoints(
  db: Db,
  kind: EndpointKind = 'stablecart',
): Promise<AdminWebhookEndpoint<string>[]> {
  const rows = await db
    .select({
      id: webhookEndpoints.id,
      url: webhookEndpoints.url,
      events: webhookEndpoints.events,
      includeKeys: webhookEndpoints.includeKeys,
      enabled: webhookEndpoints.enabled,
      createdAt: webhookEndpoints.createdAt,
      pending: sql<number>`(select count(*)::int from ${webhookDeliveries} d where d.endpoint_id = ${webhookEndpoints.id} and d.status = 'pending')`,
      failed: sql<number>`(select count(*)::int from ${webhookDeliveries} d where d.endpoint_id = ${webhookEndpoints.id} and d.status = 'failed')`,
      lastStatus: sql<AdminWebhookEndpoint['last_status']>`(${newest(sql`d.status`)})`,
      lastStatusCode: sql<number | null>`(${newest(sql`d.last_status_code`)})`,
    })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.kind, kind))
    .orderBy(webhookEndpoints.id)
  return rows.map((r) => ({
    id: r.id,
    url: r.url,
    events: r.events,
    include_keys: r.includeKeys,
    enabled: r.enabled,
    created_at: r.createdAt.toISOString(),
    pending: r.pending,
    failed: r.failed,
    last_status: r.lastStatus,
    last_status_code: r.lastStatusCode,
  }))
}

/** The invoice a Greenfield (invoiceId) or epusdt (trade_id) body is about; null for the shop's own events. */
function invoiceIdOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { invoiceId?: unknown; trade_id?: unknown }
    const id = parsed.invoiceId ?? parsed.trade_id
    return typeof id === 'string' ? id : null
  } catch {
    return null
  }
}

/** The newest `limit` deliveries of one endpoint, newest first. */
export async function listDeliveries(
  db: Db,
  endpointId: number,
  limit: number,
): Promise<AdminWebhookDelivery[]> {
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.id))
    .limit(limit)
  return rows.map((r) => ({
    id: r.id,
    event_id: r.eventId,
    event_type: r.eventType,
    invoice_id: invoiceIdOf(r.body),
    status: r.status,
    attempts: r.attempts,
    last_status_code: r.lastStatusCode,
    last_response: r.lastResponse,
    next_attempt_at: iso(r.nextAttemptAt) as string,
    delivered_at: iso(r.deliveredAt),
    created_at: iso(r.createdAt) as string,
  }))
}

export interface EndpointFields {
  url: string
  events: string[]
  includeKeys: boolean
  enabled: boolean
  kind?: EndpointKind
}

export type EndpointRow = Omit<typeof webhookEndpoints.$inferSelect, 'secret'>

/** The endpoints of one kind (never their secrets), oldest first. */
export async function endpointsOfKind(db: Db, kind: 'stablecart' | 'greenfield'): Promise<EndpointRow[]> {
  const { secret: _secret, ...columns } = getTableColumns(webhookEndpoints)
  return db
    .select(columns)
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.kind, kind))
    .orderBy(webhookEndpoints.id)
}

/** One endpoint of a kind (never its secret), or null. */
export async function endpointOfKind(
  db: Db,
  id: number,
  kind: 'stablecart' | 'greenfield',
): Promise<EndpointRow | null> {
  const { secret: _secret, ...columns } = getTableColumns(webhookEndpoints)
  const [row] = await db
    .select(columns)
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.kind, kind)))
  return row ?? null
}

/** Queues a delivery of one endpoint again, found by its event id; false when it has none such. */
export async function requeueEndpointDelivery(db: Db, endpointId: number, eventId: string): Promise<boolean> {
  const rows = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: sql`now()`, createdAt: sql`now()` })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.eventId, eventId)))
    .returning({ id: webhookDeliveries.id })
  return rows.length > 0
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
