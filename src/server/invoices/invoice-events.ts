import { eq, sql } from 'drizzle-orm'
import type { ChainId, TokenSymbol } from '../../shared/chains'
import { receivedUsdMicros } from '../../shared/trx'
import { type GreenfieldEvent, greenfieldEvents } from '../../shared/webhooks'
import { decimalsOf } from '../chains/token-table'
import type { Db } from '../db/client'
import { invoices, type orders } from '../db/schema'
import { recordEpusdtCallback, recordGreenfieldEvent } from '../webhooks/events'
import { storeIdOf } from './api-keys.repo'
import { callbackFields, centsAsAmount, type EpusdtTerms } from './epusdt-protocol'

// The Greenfield webhook events of an invoice, recorded in the transaction of the order's change
// that causes them (the webhooks module calls recordInvoiceEvents beside each order event), each
// type at most once per invoice and in Greenfield's order: InvoiceCreated, InvoiceReceivedPayment,
// InvoiceProcessing, then InvoiceSettled, or InvoiceExpired / InvoiceInvalid. A payment seen at the
// head is InvoiceReceivedPayment (and InvoiceProcessing when it covers the amount); the order paid
// sends what was not sent yet, then InvoiceSettled.

export { type GreenfieldEvent, greenfieldEvents }

type OrderRow = typeof orders.$inferSelect
type InvoiceRow = typeof invoices.$inferSelect

const MICROS_PER_CENT = 10_000n

/** Micro-dollars of a sighting's token amount (stablecoins at par; anything else counts nothing). */
function sightingMicros(extra: Record<string, unknown>): bigint {
  const s = extra.sighting as { chain?: ChainId; token?: TokenSymbol; amount_units?: string } | undefined
  if (!s?.chain || !s.token || s.token === 'TRX' || !s.amount_units || !/^\d{1,40}$/.test(s.amount_units))
    return 0n
  const decimals = decimalsOf(s.chain, s.token)
  const units = BigInt(s.amount_units)
  return decimals >= 6 ? units / 10n ** BigInt(decimals - 6) : units * 10n ** BigInt(6 - decimals)
}

/** The events an order's change comes to, with each one's own fields. */
function eventsFor(
  type: string,
  order: OrderRow,
  extra: Record<string, unknown>,
  keys: readonly { product_id: number; key: string }[],
): [GreenfieldEvent, Record<string, unknown>][] {
  const received = receivedUsdMicros(order.amountReceivedUnits, order.nativeReceivedUnits, order.nativeRateE8)
  const due = BigInt(order.totalCents) * MICROS_PER_CENT
  const afterExpiration = Date.now() > order.windowEndsAt.getTime()
  switch (type) {
    case 'order.confirming': {
      const covered = received + sightingMicros(extra) >= due
      return [
        ['InvoiceReceivedPayment', { afterExpiration }],
        ...(covered
          ? [['InvoiceProcessing', { overPaid: received + sightingMicros(extra) > due }] as const]
          : []),
      ] as [GreenfieldEvent, Record<string, unknown>][]
    }
    case 'order.paid': {
      // Paid by hand: no transaction paid it.
      const manuallyMarked = order.txHash === null
      return [
        ['InvoiceReceivedPayment', { afterExpiration: order.late }],
        ['InvoiceProcessing', { overPaid: received > due }],
        [
          'InvoiceSettled',
          {
            manuallyMarked,
            overPaid: received > due,
            // An invoice of catalogue products: the keys delivered, for the seller's site to show.
            ...(order.items.length > 0
              ? {
                  keys: keys.map((k) => ({
                    productId: k.product_id,
                    productName: order.items.find((i) => i.product.id === k.product_id)?.product.name ?? null,
                    key: k.key,
                  })),
                }
              : {}),
          },
        ],
      ]
    }
    case 'order.expired':
      return [['InvoiceExpired', { partiallyPaid: received > 0n }]]
    case 'order.cancelled':
      return order.cancelReason === 'admin'
        ? [['InvoiceInvalid', { manuallyMarked: true }]]
        : [['InvoiceExpired', { partiallyPaid: received > 0n }]]
    default:
      return []
  }
}

/** Records the events not recorded yet for this invoice, in order, and notes them on it. */
async function record(
  tx: Db,
  invoice: Pick<InvoiceRow, 'id' | 'metadata' | 'eventsSent'>,
  events: readonly [GreenfieldEvent, Record<string, unknown>][],
): Promise<void> {
  const sent = new Set(invoice.eventsSent)
  const fresh = events.filter(([type]) => !sent.has(type))
  if (fresh.length === 0) return
  const storeId = await storeIdOf(tx)
  for (const [type, fields] of fresh) {
    const timestamp = Math.floor(Date.now() / 1000)
    await recordGreenfieldEvent(tx, type, (webhookId, deliveryId) => ({
      deliveryId,
      webhookId,
      originalDeliveryId: deliveryId,
      isRedelivery: false,
      type,
      timestamp,
      storeId,
      invoiceId: invoice.id,
      metadata: invoice.metadata,
      ...fields,
    }))
    sent.add(type)
  }
  await tx
    .update(invoices)
    .set({ eventsSent: [...sent] })
    .where(eq(invoices.id, invoice.id))
}

/** InvoiceCreated, in the transaction that places the invoice's order. */
export async function recordInvoiceCreated(
  tx: Db,
  invoice: Pick<InvoiceRow, 'id' | 'metadata'>,
): Promise<void> {
  await record(tx, { ...invoice, eventsSent: [] }, [['InvoiceCreated', {}]])
}

/** Called by the webhooks module beside every order event: the invoice's events, if it is one. */
export async function recordInvoiceEvents(
  tx: Db,
  type: string,
  order: OrderRow,
  extra: Record<string, unknown>,
  /** order.paid: the licence keys handed out, named in InvoiceSettled of an invoice of products. */
  keys: readonly { product_id: number; key: string }[] = [],
): Promise<void> {
  const events = eventsFor(type, order, extra, keys)
  if (events.length === 0) return
  const result = (await tx.execute(
    sql`select id, metadata, events_sent, checkout from ${invoices} where order_id = ${order.id} for update`,
  )) as unknown as {
    rows: {
      id: string
      metadata: Record<string, unknown>
      events_sent: string[]
      checkout: { epusdt?: EpusdtTerms }
    }[]
  }
  const row = result.rows[0]
  if (!row) return
  await record(tx, { id: row.id, metadata: row.metadata, eventsSent: row.events_sent }, events)
  const terms = row.checkout.epusdt
  if (type === 'order.paid' && terms && !row.events_sent.includes(EPUSDT_PAID)) {
    // An epusdt order: its seller's paid callback, once (the worker repeats it until answered ok).
    await recordEpusdtCallback(
      tx,
      terms.notifyUrl,
      callbackFields({
        tradeId: row.id,
        orderId: String(row.metadata.orderId ?? ''),
        amount: terms.amount,
        actualAmount: centsAsAmount(order.totalCents),
        token: order.walletAddress,
        txId: order.txHash,
      }),
    )
    await tx
      .update(invoices)
      .set({ eventsSent: sql`${invoices.eventsSent} || ${JSON.stringify([EPUSDT_PAID])}::jsonb` })
      .where(eq(invoices.id, row.id))
  }
}

/** Noted on an epusdt invoice once its paid callback is recorded. */
const EPUSDT_PAID = 'EpusdtPaid'
