import { type Locale, localeTags } from '../../shared/locale'
import { ORDER_LINK_MINUTES } from '../../shared/order-links'
import type { OrderRow } from '../orders/orders.repo'
import { emailTranslator, formatUsdCents } from './email-i18n'
import { escapeHtml } from './order-email'

// The "E-mail me my orders" e-mail, in the language the buyer asked in (messages/<locale>.json).

export function renderOrderLinksEmail(input: {
  shop: string
  colour: string
  link: string
  orders: OrderRow[]
  locale: Locale
}) {
  const t = emailTranslator(input.locale)
  const subject = t('links.subject', { shop: input.shop })
  const describe = (o: OrderRow) =>
    t('links.order', {
      date: o.createdAt.toISOString().slice(0, 10),
      id: o.id.slice(0, 8),
      total: formatUsdCents(o.totalCents, input.locale),
      items: o.items.map((i) => `${i.product.name} × ${i.quantity}`).join(', '),
    })
  const text = [
    t('links.introText', { shop: input.shop }),
    '',
    ...input.orders.map(describe),
    '',
    t('links.openText', { minutes: ORDER_LINK_MINUTES }),
    input.link,
    '',
    t('links.ignoreText'),
  ].join('\n')
  const html = `<!doctype html>
<html lang="${localeTags[input.locale]}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;background:#f3f4f6;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;padding:24px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;overflow:hidden">
  <tr><td style="background:${input.colour};padding:20px 24px;color:#ffffff;font-size:20px;font-weight:700">${escapeHtml(input.shop)}</td></tr>
  <tr><td style="padding:24px">
    <h1 style="margin:0 0 8px;font-size:20px;color:#111827">${escapeHtml(t('links.heading'))}</h1>
    <p style="margin:0 0 16px;color:#374151;font-size:14px">${escapeHtml(t('links.introHtml'))}</p>
    <ul style="margin:0 0 16px;padding-left:18px;color:#374151;font-size:14px">${input.orders
      .map((o) => `<li style="margin-bottom:6px">${escapeHtml(describe(o))}</li>`)
      .join('')}</ul>
    <p style="margin:0 0 24px"><a href="${escapeHtml(input.link)}" style="display:inline-block;background:${input.colour};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(t('links.button'))}</a></p>
    <p style="margin:0 0 8px;color:#6b7280;font-size:12px">${escapeHtml(t('links.noteHtml', { minutes: ORDER_LINK_MINUTES }))}</p>
    <p style="margin:0;color:#6b7280;font-size:12px;word-break:break-all">${escapeHtml(input.link)}</p>
  </td></tr>
</table></td></tr></table></body></html>`
  return { subject, html, text }
}
