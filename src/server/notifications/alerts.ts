import { and, count, eq, gt, sql } from 'drizzle-orm'
import type { AlertKind } from '../../shared/settings'
import type { Db } from '../db/client'
import { operatorAlerts } from '../db/schema'
import { escapeHtml } from '../delivery/order-email'
import { queueMail } from '../delivery/order-mail.repo'
import { loadSettings } from '../settings/settings'

// Operator notifications. An alert is written in the caller's transaction (so a paid order's alert
// exists exactly when the payment does): one row in operator_alerts (which the Telegram sender
// works through, and which is the rate limit's memory) and, with an operator e-mail set, one mail
// queued through the delivery module (queueMail).

/** The same alert about the same thing (an order, a product, the pool) at most once in this window. */
export const REPEAT_WINDOW_MS = 60 * 60_000
/** And at most this many alerts of one kind per window, whatever they are about. */
export const MAX_PER_KIND_PER_WINDOW = 30

export const OPERATOR_ALERT_MAIL = 'operator_alert'

export const alertTitles: Record<AlertKind, string> = {
  order_paid: 'Order paid',
  payment_unmatched: 'Unmatched transfer',
  stock_low: 'Licence keys running low',
  pool_low: 'Address pool running low',
  mail_failing: 'Order e-mails failing',
  scanner_stalled: 'Payment scanner stalled',
  providers_down: 'Chain providers down',
  provider_quota: 'Chain provider near its daily limit',
  provider_set_aside: 'Chain provider set aside',
}

/**
 * Queues an alert unless its kind is switched off, no channel is configured, or it repeats within
 * the window. Answers whether it was queued.
 */
export async function raiseAlert(
  tx: Db,
  kind: AlertKind,
  subjectKey: string,
  text: string,
): Promise<boolean> {
  const settings = await loadSettings(tx)
  if (!settings.alerts[kind]) return false
  const telegram = Boolean(settings.telegramBotToken && settings.telegramChatId)
  if (!telegram && !settings.operatorEmail) return false
  // Two transactions raising the same alert at once: one waits for the other, then sees its row.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`alert|${kind}|${subjectKey}`}))`)
  const since = new Date(Date.now() - REPEAT_WINDOW_MS)
  const [same] = await tx
    .select({ n: count() })
    .from(operatorAlerts)
    .where(
      and(
        eq(operatorAlerts.kind, kind),
        eq(operatorAlerts.subjectKey, subjectKey),
        gt(operatorAlerts.createdAt, since),
      ),
    )
  if ((same?.n ?? 0) > 0) return false
  const [ofKind] = await tx
    .select({ n: count() })
    .from(operatorAlerts)
    .where(and(eq(operatorAlerts.kind, kind), gt(operatorAlerts.createdAt, since)))
  if ((ofKind?.n ?? 0) >= MAX_PER_KIND_PER_WINDOW) return false

  await tx
    .insert(operatorAlerts)
    .values({ kind, subjectKey, text, telegramStatus: telegram ? 'pending' : 'none' })
  if (settings.operatorEmail) {
    const title = alertTitles[kind]
    await queueMail(tx, {
      kind: OPERATOR_ALERT_MAIL,
      to: settings.operatorEmail,
      subject: `[Stablecart] ${title}`,
      html: `<p><strong>${escapeHtml(title)}</strong></p><p>${escapeHtml(text).replace(/\n/g, '<br>')}</p>`,
      text: `${title}\n\n${text}\n`,
    })
  }
  return true
}
