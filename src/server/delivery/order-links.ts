import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt, isNull, lt } from 'drizzle-orm'
import type { Locale } from '../../shared/locale'
import { ORDER_LINK_MINUTES } from '../../shared/order-links'
import { mergeSiteContent } from '../../shared/site-content'
import { readStoredContent } from '../content/content.repo'
import type { Db } from '../db/client'
import { orderLinks } from '../db/schema'
import { type OrderRow, paidOrdersOf } from '../orders/orders.repo'
import { safeColour } from './order-email'
import { renderOrderLinksEmail } from './order-links-email'
import { queueMail } from './order-mail.repo'

// "E-mail me my orders": the delivery module owns order_links and order_link_asks. A link's token is
// shown only in the e-mail; the table keeps its sha256, so a leaked table opens nothing. A link works
// once and only for ORDER_LINK_MINUTES. The buyer's ask is answered before anything is looked up:
// the request writes an ask (the same work for every address, so the answer's time tells nothing),
// and the order-links worker (order-links-worker.ts) finds the orders and queues the mail.

export const ORDER_LINKS_MAIL = 'order_links'
/** The most orders one link lists (and one e-mail names). */
export const MAX_LINKED_ORDERS = 100
const MINUTE = 60_000

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex')

/**
 * When the address has paid orders: stores a new link and queues the e-mail naming them, in the
 * caller's transaction. Answers whether a mail was queued (nobody tells the buyer).
 */
export async function sendOrderLinks(
  tx: Db,
  email: string,
  publicUrl: string,
  locale: Locale = 'en',
): Promise<boolean> {
  const paid = await paidOrdersOf(tx, email, MAX_LINKED_ORDERS)
  if (paid.length === 0) return false
  const token = randomBytes(32).toString('base64url')
  const now = new Date()
  const content = mergeSiteContent(await readStoredContent(tx))
  const link = `${publicUrl.replace(/\/+$/, '')}/orders/${token}`
  const mail = renderOrderLinksEmail({
    shop: [content.logo.mainText, content.logo.subText].filter(Boolean).join(' '),
    colour: safeColour(content.theme.primary),
    link,
    orders: paid,
    locale,
  })
  // Old links go as new ones come: the table holds only what could still be opened (and a day).
  await tx.delete(orderLinks).where(lt(orderLinks.expiresAt, new Date(now.getTime() - 24 * 60 * MINUTE)))
  await tx.insert(orderLinks).values({
    tokenHash: hashOf(token),
    email: email.trim().toLowerCase(),
    createdAt: now,
    expiresAt: new Date(now.getTime() + ORDER_LINK_MINUTES * MINUTE),
  })
  await queueMail(tx, {
    kind: ORDER_LINKS_MAIL,
    to: paid[0]?.email ?? email,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
  })
  return true
}

/** Uses a link: answers its address's paid orders, or null when it is unknown, used or expired. */
export async function openOrderLinks(
  db: Db,
  token: string,
): Promise<{ email: string; orders: OrderRow[] } | null> {
  const [link] = await db
    .update(orderLinks)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(orderLinks.tokenHash, hashOf(token)),
        isNull(orderLinks.usedAt),
        gt(orderLinks.expiresAt, new Date()),
      ),
    )
    .returning({ email: orderLinks.email })
  if (!link) return null
  return { email: link.email, orders: await paidOrdersOf(db, link.email, MAX_LINKED_ORDERS) }
}
