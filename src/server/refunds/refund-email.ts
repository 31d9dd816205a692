import { type Locale, localeTags } from '../../shared/locale'
import { REFUND_LINK_HOURS } from '../../shared/refunds'
import { emailTranslator } from '../delivery/email-i18n'
import { escapeHtml } from '../delivery/order-email'

// The refund's two e-mails, in the order's language: "tell us where to send it" (with the one-time
// link) and "it was sent" (with the transaction).

interface Frame {
  shop: string
  colour: string
  locale: Locale
}

function page(
  frame: Frame,
  subject: string,
  heading: string,
  paragraphs: string[],
  button: { href: string; label: string },
  note: string,
) {
  return `<!doctype html>
<html lang="${localeTags[frame.locale]}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;background:#f3f4f6;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;padding:24px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;overflow:hidden">
  <tr><td style="background:${frame.colour};padding:20px 24px;color:#ffffff;font-size:20px;font-weight:700">${escapeHtml(frame.shop)}</td></tr>
  <tr><td style="padding:24px">
    <h1 style="margin:0 0 8px;font-size:20px;color:#111827">${escapeHtml(heading)}</h1>
    ${paragraphs.map((p) => `<p style="margin:0 0 16px;color:#374151;font-size:14px;word-break:break-word">${escapeHtml(p)}</p>`).join('\n    ')}
    <p style="margin:0 0 24px"><a href="${escapeHtml(button.href)}" style="display:inline-block;background:${frame.colour};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(button.label)}</a></p>
    <p style="margin:0 0 8px;color:#6b7280;font-size:12px">${escapeHtml(note)}</p>
    <p style="margin:0;color:#6b7280;font-size:12px;word-break:break-all">${escapeHtml(button.href)}</p>
  </td></tr>
</table></td></tr></table></body></html>`
}

export function renderRefundLinkEmail(
  input: Frame & { amount: string; token: string; network: string; order: string | null; link: string },
) {
  const t = emailTranslator(input.locale)
  const subject = t('refund.subject', { shop: input.shop })
  const intro = input.order
    ? t('refund.intro', { shop: input.shop, amount: input.amount, token: input.token, order: input.order })
    : t('refund.introReturn', { shop: input.shop, amount: input.amount, token: input.token })
  const ask = t('refund.ask', { hours: REFUND_LINK_HOURS, network: input.network })
  const note = t('refund.note')
  const text = [intro, '', ask, input.link, '', note].join('\n')
  const html = page(
    input,
    subject,
    t('refund.heading'),
    [intro, ask],
    { href: input.link, label: t('refund.button') },
    note,
  )
  return { subject, html, text }
}

export function renderRefundSentEmail(
  input: Frame & {
    amount: string
    token: string
    network: string
    order: string | null
    address: string
    txUrl: string
  },
) {
  const t = emailTranslator(input.locale)
  const subject = t('refundSent.subject', { shop: input.shop })
  const intro = t('refundSent.intro', {
    amount: input.amount,
    token: input.token,
    address: input.address,
    network: input.network,
  })
  const lines = input.order ? [intro, t('refundSent.order', { order: input.order })] : [intro]
  const text = [...lines, '', t('refundSent.tx'), input.txUrl].join('\n')
  const html = page(
    input,
    subject,
    t('refundSent.heading'),
    lines,
    { href: input.txUrl, label: t('refundSent.button') },
    t('refundSent.tx'),
  )
  return { subject, html, text }
}
