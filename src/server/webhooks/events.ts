import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { formatCents, microsToDollars } from '../../shared/money'
import type { WebhookEvent } from '../../shared/webhooks'
import { decimalsOf } from '../chains/token-table'
import type { Db } from '../db/client'
import { licenseKeys, orders, payments, webhookDeliveries, webhookEndpoints } from '../db/schema'
import { recordInvoiceEvents } from '../invoices/invoice-events'
import type { LowStock } from '../keys/low-stock'
import type { UnmatchedTransfer } from '../notifications/shop-alerts'
import { explorerTxUrlOf } from '../payments/order-payment'

// Writing webhook events: one outbox row per enabled endpoint that subscribed to the event, in the
// caller's transaction, so the event exists exactly when the change it reports has committed. The
// delivery worker sends them after commit. Recording an event does nothing else: the flow that
// makes the change raises its operator alert itself (notifications/shop-alerts.ts).

export interface EventOptions {
  /** Only for order.paid: the licence keys, sent to endpoints that opted in. */
  keys?: { product_id: number; key: string }[]
}

/** Records one event for every subscribed endpoint; answers the event id (or null: nobody listens). */
export async function recordEvent(
  tx: Db,
  type: WebhookEvent,
  data: Record<string, unknown>,
  opts: EventOptions = {},
): Promise<string | null> {
  const [id] = await recordEvents(tx, type, [{ data, ...opts }])
  return id ?? null
}

/**
 * Records events of one type (one per change: several orders placed together) for every subscribed
 * endpoint, with one lookup of the endpoints and one insert; answers each event's id, or nulls when
 * nobody listens.
 */
export async function recordEvents(
  tx: Db,
  type: WebhookEvent,
  events: readonly ({ data: Record<string, unknown> } & EventOptions)[],
): Promise<(string | null)[]> {
  if (events.length === 0) return []
  const endpoints = await tx
    .select({ id: webhookEndpoints.id, includeKeys: webhookEndpoints.includeKeys })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.enabled, true),
        sql`${webhookEndpoints.events} @> ${JSON.stringify([type])}::jsonb`,
      ),
    )
  if (endpoints.length === 0) return events.map(() => null)
  const createdAt = new Date().toISOString()
  const ids = events.map(() => randomUUID())
  const rows = events.flatMap((event, i) => {
    const id = ids[i] as string
    return endpoints.map((endpoint) => ({
      endpointId: endpoint.id,
      eventId: id,
      eventType: type,
      body: JSON.stringify({
        id,
        type,
        created_at: createdAt,
        data: endpoint.includeKeys && event.keys ? { ...event.data, keys: event.keys } : event.data,
      }),
    }))
  })
  await tx.insert(webhookDeliveries).values(rows)
  return ids
}

/**
 * Events of the invoice API in Greenfield's shape (src/server/invoices): one delivery per enabled
 * 'greenfield' endpoint that takes the type, each with its own delivery id inside its body.
 */
export async function recordGreenfieldEvent(
  tx: Db,
  type: string,
  bodyOf: (webhookId: string, deliveryId: string) => Record<string, unknown>,
): Promise<number> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.enabled, true),
        eq(webhookEndpoints.kind, 'greenfield'),
        sql`${webhookEndpoints.events} @> ${JSON.stringify([type])}::jsonb`,
      ),
    )
  if (endpoints.length === 0) return 0
  const rows = endpoints.map((endpoint) => {
    const deliveryId = randomUUID()
    return {
      endpointId: endpoint.id,
      eventId: deliveryId,
      eventType: type,
      body: JSON.stringify(bodyOf(String(endpoint.id), deliveryId)),
    }
  })
  await tx.insert(webhookDeliveries).values(rows)
  return rows.length
}

/**
 * An epusdt paid callback to a seller's notify_url: the URL's 'epusdt' endpoint (made the first
 * time, one per URL), and one delivery of the fields kept unsigned: the worker signs them with the
 * token when it sends them, and sends them again until the seller answers ok.
 */
export async function recordEpusdtCallback(
  tx: Db,
  notifyUrl: string,
  fields: Record<string, unknown>,
): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`epusdt endpoint ${notifyUrl}`}))`)
  const [found] = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.kind, 'epusdt'), eq(webhookEndpoints.url, notifyUrl)))
    .limit(1)
  const endpointId =
    found?.id ??
    (
      await tx
        .insert(webhookEndpoints)
        .values({ url: notifyUrl, events: [], secret: '', kind: 'epusdt' })
        .returning({ id: webhookEndpoints.id })
    )[0]?.id
  if (endpointId === undefined) return
  await tx.insert(webhookDeliveries).values({
    endpointId,
    eventId: randomUUID(),
    eventType: 'epusdt.paid',
    body: JSON.stringify(fields),
  })
}

type OrderRow = typeof orders.$inferSelect
type OrderFacts = Pick<
  OrderRow,
  | 'id'
  | 'status'
  | 'email'
  | 'totalCents'
  | 'items'
  | 'walletAddress'
  | 'createdAt'
  | 'discountCode'
  | 'discountCents'
  | 'chain'
  | 'token'
>

/** What every order event says about the order. */
function orderEventData(order: OrderFacts): Record<string, unknown> {
  return {
    order_id: order.id,
    status: order.status,
    email: order.email,
    total_usd: formatCents(order.totalCents),
    // total_usd is what is due after the discount; subtotal_usd the lines' sum before it.
    subtotal_usd: formatCents(order.totalCents + order.discountCents),
    discount_code: order.discountCode,
    discount_usd: formatCents(order.discountCents),
    items: order.items.map((item) => ({
      product_id: item.product.id,
      name: item.product.name,
      unit_price_usd: formatCents(item.product.price_cents),
      quantity: item.quantity,
    })),
    wallet_address: order.walletAddress,
    // The network and token the buyer picked to pay with.
    chain: order.chain,
    token: order.token,
    created_at: order.createdAt.toISOString(),
  }
}

/** order.created for orders just inserted in the caller's transaction (their rows as inserted). */
export async function recordOrdersCreated(tx: Db, created: readonly OrderFacts[]): Promise<void> {
  await recordEvents(
    tx,
    'order.created',
    created.map((order) => ({ data: orderEventData(order) })),
  )
}

/**
 * order.created / order.paid / order.cancelled / order.expired for one order, read inside the
 * transaction that changed it: items, amounts, and for paid the transactions (and keys on opt-in).
 */
export async function recordOrderEvent(
  tx: Db,
  type:
    | 'order.created'
    | 'order.paid'
    | 'order.cancelled'
    | 'order.expired'
    | 'order.confirming'
    | 'order.refunded',
  orderId: string,
  /** Fields added to the order's (order.confirming: the sighting; order.refunded: the refund). */
  extra: Record<string, unknown> = {},
): Promise<string | null> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId))
  if (!order) return null
  const data = { ...orderEventData(order), ...extra }
  let keys: EventOptions['keys']
  if (type === 'order.paid') {
    const paid = await tx.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(payments.id)
    data.paid_at = order.paidAt?.toISOString() ?? new Date().toISOString()
    data.tx_hash = order.txHash
    const paying = paid.find((p) => p.txId === order.txHash)
    data.tx_chain = order.txHash ? (paying?.chain ?? order.chain) : null
    data.tx_url = order.txHash ? explorerTxUrlOf(paying?.chain ?? order.chain, order.txHash) : null
    data.late = order.late
    data.amount_received_usdt = microsToDollars(order.amountReceivedUnits)
    data.trx_received_sun = order.nativeReceivedUnits.toString()
    data.payments = paid.map((p) => ({
      chain: p.chain,
      tx_id: p.txId,
      tx_url: explorerTxUrlOf(p.chain, p.txId),
      token: p.token,
      amount_units: p.amountUnits.toString(),
      decimals: decimalsOf(p.chain, p.token),
      from_address: p.fromAddress,
      late: p.late,
    }))
    keys = (
      await tx
        .select({ product_id: licenseKeys.productId, key: licenseKeys.key })
        .from(licenseKeys)
        .where(eq(licenseKeys.orderId, orderId))
        .orderBy(licenseKeys.id)
    ).map((k) => ({ product_id: k.product_id, key: k.key }))
  }
  const id = await recordEvent(tx, type, data, { keys })
  // An order of an invoice: the invoice API's own events, in Greenfield's shape.
  await recordInvoiceEvents(tx, type, order, extra, keys)
  return id
}

/** payment.unmatched: a transfer to one of our addresses that pays no order. */
export async function recordUnmatchedPayment(tx: Db, transfer: UnmatchedTransfer): Promise<string | null> {
  const { chain } = transfer
  return recordEvent(tx, 'payment.unmatched', {
    chain,
    tx_id: transfer.txId,
    token: transfer.token,
    amount_units: transfer.amountUnits.toString(),
    from_address: transfer.fromAddress,
    to_address: transfer.toAddress,
    reason: transfer.reason ?? 'no_order',
  })
}

/** stock.low for each product low on licence keys (keys/low-stock.ts says which). */
export async function recordStockLow(tx: Db, low: readonly LowStock[]): Promise<void> {
  for (const { productId, keysLeft, threshold } of low) {
    await recordEvent(tx, 'stock.low', { product_id: productId, keys_left: keysLeft, threshold })
  }
}
