import { type Locale, localeTags } from '../../shared/locale'
import type { SiteContent } from '../../shared/site-content'
import { emailTranslator, formatUsdCents } from './email-i18n'

// The e-mail a buyer receives when their order is paid: items, keys and the dashboard link, in HTML
// and plain text, with the shop's logo text and theme colour, in the language the buyer ordered in.

export interface OrderEmailItem {
  name: string
  quantity: number
  keys: string[]
  downloadUrl: string | null
}

export interface OrderEmailInput {
  content: SiteContent
  orderId: string
  items: OrderEmailItem[]
  /** Integer cents, after the discount. */
  totalPaidCents: number
  /** The discount code and what it took off (integer cents); absent without a code. */
  discount?: { code: string; cents: number }
  txHash: string
  /** The token and network that paid, and the transaction's explorer page; absent while unknown. */
  payment?: { token: string; network: string; txUrl: string | null }
  dashboardUrl: string
  locale: Locale
}

export interface RenderedEmail {
  subject: string
  html: string
  text: string
}

export const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  )

/** A colour fit for an inline style attribute; anything else falls back to the default blue. */
export function safeColour(value: string): string {
  return /^#[0-9a-fA-F]{3,8}$|^rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)$/.test(value)
    ? value
    : '#3b82f6'
}

// Payment addresses are reused for other orders later: a buyer who sends to this one again from
// their wallet history would pay someone else's order.
export function renderOrderEmail(input: OrderEmailInput): RenderedEmail {
  const shop = [input.content.logo.mainText, input.content.logo.subText].filter(Boolean).join(' ')
  const colour = safeColour(input.content.theme.primary)
  const t = emailTranslator(input.locale)
  const total = formatUsdCents(input.totalPaidCents, input.locale)
  const shortId = input.orderId.slice(0, 8)
  const subject = t('email.subject', { shop, id: shortId })
  const support = input.content.support.email
  const discount = input.discount
    ? {
        code: input.discount.code,
        amount: formatUsdCents(input.discount.cents, input.locale),
        subtotal: formatUsdCents(input.totalPaidCents + input.discount.cents, input.locale),
      }
    : null

  const textItems = input.items
    .map((item) => {
      const lines = [`${item.name} × ${item.quantity}`]
      for (const key of item.keys) lines.push(`  ${t('email.key', { key })}`)
      if (item.downloadUrl) lines.push(`  ${t('email.downloadLine', { url: item.downloadUrl })}`)
      return lines.join('\n')
    })
    .join('\n\n')
  const text = [
    t('email.thanksText', { shop }),
    '',
    t('email.order', { id: input.orderId }),
    ...(discount
      ? [
          t('email.subtotal', { amount: discount.subtotal }),
          t('email.discount', { code: discount.code, amount: discount.amount }),
        ]
      : []),
    t('email.totalText', { total, tx: input.txHash }),
    ...(input.payment
      ? [t('email.paidWith', { token: input.payment.token, network: input.payment.network })]
      : []),
    ...(input.payment?.txUrl ? [t('email.txLinkText', { url: input.payment.txUrl })] : []),
    '',
    textItems,
    '',
    t('email.dashboardText'),
    input.dashboardUrl,
    '',
    t('email.addressNote'),
    '',
    support ? t('email.questionsText', { email: support }) : '',
  ]
    .join('\n')
    .trim()

  const htmlItems = input.items
    .map(
      (item) => `
      <tr><td style="padding:16px 0;border-top:1px solid #e5e7eb">
        <div style="font-weight:600;font-size:15px;color:#111827">${escapeHtml(item.name)} <span style="color:#6b7280;font-weight:400">× ${item.quantity}</span></div>
        ${item.keys
          .map(
            (key) =>
              `<div style="margin-top:8px;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:14px;background:#f3f4f6;border-radius:6px;padding:8px 10px;color:#111827">${escapeHtml(key)}</div>`,
          )
          .join('')}
        ${item.downloadUrl ? `<div style="margin-top:8px"><a href="${escapeHtml(item.downloadUrl)}" style="color:${colour}">${escapeHtml(t('email.download'))}</a></div>` : ''}
      </td></tr>`,
    )
    .join('')
  const html = `<!doctype html>
<html lang="${localeTags[input.locale]}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;background:#f3f4f6;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;padding:24px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;overflow:hidden">
  <tr><td style="background:${colour};padding:20px 24px;color:#ffffff;font-size:20px;font-weight:700">${escapeHtml(shop)}</td></tr>
  <tr><td style="padding:24px">
    <h1 style="margin:0 0 8px;font-size:20px;color:#111827">${escapeHtml(t('email.heading'))}</h1>
    <p style="margin:0 0 4px;color:#374151;font-size:14px">${t('email.orderHtml', { id: escapeHtml(input.orderId) })}</p>
    ${discount ? `<p style="margin:0 0 4px;color:#374151;font-size:14px">${escapeHtml(t('email.subtotal', { amount: discount.subtotal }))}</p><p style="margin:0 0 4px;color:#047857;font-size:14px">${escapeHtml(t('email.discount', { code: discount.code, amount: discount.amount }))}</p>` : ''}
    <p style="margin:0 0 ${input.payment ? 4 : 16}px;color:#374151;font-size:14px">${t('email.totalHtml', { total: escapeHtml(total) })}</p>
    ${input.payment ? `<p style="margin:0 0 16px;color:#374151;font-size:14px">${escapeHtml(t('email.paidWith', { token: input.payment.token, network: input.payment.network }))}${input.payment.txUrl ? ` · <a href="${escapeHtml(input.payment.txUrl)}" style="color:${colour}">${escapeHtml(t('email.txLink'))}</a>` : ''}</p>` : ''}
    <table role="presentation" width="100%" cellpadding="0" cellspacing="0">${htmlItems}</table>
    <p style="margin:24px 0 8px;color:#374151;font-size:14px">${escapeHtml(t('email.dashboardHtml'))}</p>
    <p style="margin:0 0 24px"><a href="${escapeHtml(input.dashboardUrl)}" style="display:inline-block;background:${colour};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(t('email.openDashboard'))}</a></p>
    <p style="margin:0;color:#6b7280;font-size:12px;word-break:break-all">${escapeHtml(input.dashboardUrl)}</p>
    <p style="margin:16px 0 0;color:#6b7280;font-size:13px">${escapeHtml(t('email.addressNote'))}</p>
  </td></tr>
  ${support ? `<tr><td style="padding:16px 24px;border-top:1px solid #e5e7eb;color:#6b7280;font-size:13px">${t('email.questionsHtml', { email: escapeHtml(support) }).replace('<a>', `<a href="mailto:${escapeHtml(support)}" style="color:${colour}">`)}</td></tr>` : ''}
</table></td></tr></table></body></html>`
  return { subject, html, text }
}
