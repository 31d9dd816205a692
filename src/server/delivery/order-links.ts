import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt, isNull, lt } from 'drizzle-orm'
import { formatCents } from '../../shared/money'
import { ORDER_LINK_MINUTES } from '../../shared/order-links'
import { mergeSiteContent } from '../../shared/site-content'
import { readStoredContent } from '../content/content.repo'
import type { Db } from '../db/client'
import { orderLinks } from '../db/schema'
import { type OrderRow, paidOrdersOf } from '../orders/orders.repo'
import { escapeHtml, safeColour } from './order-email'
import { queueMail } from './order-mail.repo'

// "E-mail me my orders": the delivery module owns order_links. A link's token is shown only in the
// e-mail; the table keeps its sha256, so a leaked table opens nothing. A link works once and only
// for ORDER_LINK_MINUTES.

export const ORDER_LINKS_MAIL = 'order_links'
/** The most orders one link lists (and one e-mail names). */
export const MAX_LINKED_ORDERS = 100
const MINUTE = 60_000

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex')

/**
 * When the address has paid orders: stores a new link and queues the e-mail naming them, in one
 * transaction. Answers whether a mail was queued (the caller never tells the buyer).
 */
export async function sendOrderLinks(db: Db, email: string, publicUrl: string): Promise<boolean> {
  const paid = await paidOrdersOf(db, email, MAX_LINKED_ORDERS)
  if (paid.length === 0) return false
  const token = randomBytes(32).toString('base64url')
  const now = new Date()
  const content = mergeSiteContent(await readStoredContent(db))
  const link = `${publicUrl.replace(/\/+$/, '')}/orders/${token}`
  const mail = renderOrderLinksEmail({
    shop: [content.logo.mainText, content.logo.subText].filter(Boolean).join(' '),
    colour: safeColour(content.theme.primary),
    link,
    orders: paid,
  })
  await db.transaction(async (tx) => {
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

function renderOrderLinksEmail(input: { shop: string; colour: string; link: string; orders: OrderRow[] }) {
  const subject = `Your ${input.shop} orders`
  const describe = (o: OrderRow) =>
    `${o.createdAt.toISOString().slice(0, 10)} · order ${o.id.slice(0, 8)} · $${formatCents(o.totalCents)} · ${o.items
      .map((i) => `${i.product.name} × ${i.quantity}`)
      .join(', ')}`
  const text = [
    `You asked for the orders paid with this address at ${input.shop}:`,
    '',
    ...input.orders.map(describe),
    '',
    `Open this link to reach each order's dashboard (keys, downloads, receipt). It works once, for ${ORDER_LINK_MINUTES} minutes:`,
    input.link,
    '',
    'If you did not ask for this, ignore this e-mail: nobody else receives the link.',
  ].join('\n')
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;background:#f3f4f6;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;padding:24px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;overflow:hidden">
  <tr><td style="background:${input.colour};padding:20px 24px;color:#ffffff;font-size:20px;font-weight:700">${escapeHtml(input.shop)}</td></tr>
  <tr><td style="padding:24px">
    <h1 style="margin:0 0 8px;font-size:20px;color:#111827">Your orders</h1>
    <p style="margin:0 0 16px;color:#374151;font-size:14px">You asked for the orders paid with this address:</p>
    <ul style="margin:0 0 16px;padding-left:18px;color:#374151;font-size:14px">${input.orders
      .map((o) => `<li style="margin-bottom:6px">${escapeHtml(describe(o))}</li>`)
      .join('')}</ul>
    <p style="margin:0 0 24px"><a href="${escapeHtml(input.link)}" style="display:inline-block;background:${input.colour};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">Open my orders</a></p>
    <p style="margin:0 0 8px;color:#6b7280;font-size:12px">The link works once, for ${ORDER_LINK_MINUTES} minutes. If you did not ask for it, ignore this e-mail.</p>
    <p style="margin:0;color:#6b7280;font-size:12px;word-break:break-all">${escapeHtml(input.link)}</p>
  </td></tr>
</table></td></tr></table></body></html>`
  return { subject, html, text }
}
