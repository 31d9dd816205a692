import { randomBytes } from 'node:crypto'
import { eq, inArray } from 'drizzle-orm'
import { isLocale } from '../../shared/locale'
import { chainNames } from '../../shared/networks'
import { mergeSiteContent } from '../../shared/site-content'
import { readStoredContent } from '../content/content.repo'
import type { Db } from '../db/client'
import { type OrderItemSnapshot, orders, products } from '../db/schema'
import { generateKeys, keysOfOrder, takeStockKeys } from '../keys/key-stock'
import { applyLicenceTerms } from '../keys/licence-state'
import { lowStockOf } from '../keys/low-stock'
import { consumeReservation, deliveryModesOf } from '../keys/reservation'
import { alertOrderPaid, alertStockLow } from '../notifications/shop-alerts'
import { orderPaymentOf } from '../payments/order-payment'
import { recordOrderEvent, recordStockLow } from '../webhooks/events'
import { renderOrderEmail } from './order-email'
import { queueMail } from './order-mail.repo'

// Hands out what a paid order bought: licence keys from stock (or generated) and the e-mail in the
// outbox. Runs inside the transaction that marks the order paid, so all of it commits or none does.

export interface FulfilContext {
  /** Base of the dashboard link in the e-mail: PUBLIC_URL, or http://localhost:PORT. */
  publicUrl: string
}

export const ORDER_PAID_MAIL = 'order_paid'

/** 192 random bits, URL-safe: the buyer's dashboard token. */
export function newAccessToken(): string {
  return randomBytes(24).toString('base64url')
}

/** Each item's download link: the one in the order's snapshot, else the product's current one. */
export async function itemDownloadUrls(
  db: Db,
  items: readonly OrderItemSnapshot[],
): Promise<(string | null)[]> {
  const ids = items.map((item) => item.product.id)
  const rows =
    ids.length === 0
      ? []
      : await db
          .select({ id: products.id, downloadUrl: products.downloadUrl })
          .from(products)
          .where(inArray(products.id, ids))
  const current = new Map(rows.map((p) => [p.id, p.downloadUrl]))
  return items.map((item) => item.product.download_url ?? current.get(item.product.id) ?? null)
}

export async function fulfilOrder(tx: Db, orderId: string, ctx: FulfilContext): Promise<void> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId))
  if (!order) throw new Error(`fulfilOrder: no order ${orderId}`)
  // Keys are handed out once: a second call (say, an order set back to pending and paid again by
  // the admin) keeps the keys it has. Keys reserved when the order was placed become its own.
  const reserved = await consumeReservation(tx, orderId)
  const existing = await keysOfOrder(tx, orderId)
  const modes = await deliveryModesOf(
    tx,
    order.items.map((item) => item.product.id),
  )

  const downloads = await itemDownloadUrls(tx, order.items)
  const items = []
  // Products whose stock this order took keys from (reserved when placed, or taken now).
  const tookStock: number[] = [...reserved]
  for (const [index, item] of order.items.entries()) {
    const productId = item.product.id
    const mine = existing.filter((k) => k.productId === productId).map((k) => k.key)
    const mode = modes.get(productId) ?? 'stock_then_generated'
    const needed = mode === 'none' ? 0 : item.quantity - mine.length
    if (needed > 0) {
      const stock = await takeStockKeys(tx, productId, orderId, needed)
      if (stock.length > 0) tookStock.push(productId)
      // Stock-only keys are never made up: such an order had its keys reserved when placed (only
      // an order revived by the admin after its reservation was released can come up short).
      const generated =
        mode === 'stock_only' ? [] : await generateKeys(tx, productId, orderId, needed - stock.length)
      mine.push(...stock, ...generated)
    }
    items.push({
      name: item.product.name,
      quantity: item.quantity,
      keys: mine.slice(0, item.quantity),
      downloadUrl: downloads[index] ?? null,
    })
  }

  // The keys handed out get their product's licence terms (activation limit, validity).
  await applyLicenceTerms(tx, orderId)

  const content = mergeSiteContent(await readStoredContent(tx))
  const base = ctx.publicUrl.replace(/\/+$/, '')
  const payment = await orderPaymentOf(tx, order)
  const mail = renderOrderEmail({
    content,
    orderId,
    items,
    totalPaidCents: order.totalCents,
    ...(order.discountCode ? { discount: { code: order.discountCode, cents: order.discountCents } } : {}),
    txHash: order.txHash ?? '',
    payment: {
      token: payment.txToken ?? payment.token,
      network: chainNames[payment.txChain ?? payment.chain],
      txUrl: payment.txUrl,
    },
    // The link opens the dashboard in the buyer's language (and remembers it).
    dashboardUrl: `${base}/dashboard/${order.accessToken}${order.locale === 'en' ? '' : `?lang=${order.locale}`}`,
    locale: isLocale(order.locale) ? order.locale : 'en',
  })
  // An invoice of the API may come without the buyer's e-mail: the seller's site tells the buyer.
  if (order.email !== '')
    await queueMail(tx, {
      orderId,
      kind: ORDER_PAID_MAIL,
      to: order.email,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
    })
  // Every path to paid runs through here, in the paying transaction: webhooks and alerts with it.
  await recordOrderEvent(tx, 'order.paid', orderId)
  await alertOrderPaid(tx, order)
  const low = await lowStockOf(tx, tookStock)
  await recordStockLow(tx, low)
  await alertStockLow(tx, low)
}
