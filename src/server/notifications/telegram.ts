import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { operatorAlerts } from '../db/schema'
import { quietLogger, type WorkerLogger } from '../lib/logger'
import { loadSettings } from '../settings/settings'

// Sends queued alerts with the Telegram Bot API's sendMessage. The base URL is configurable
// (TELEGRAM_API_URL), so tests point it at a local server speaking the same HTTP API.

export interface TelegramAnswer {
  ok: boolean
  /** Telegram's 429 says how long to wait. */
  retryAfterS?: number
  description?: string
}

export async function sendTelegram(
  baseUrl: string,
  token: string,
  chatId: string,
  text: string,
  timeoutMs = 10_000,
): Promise<TelegramAnswer> {
  try {
    const res = await fetch(`${baseUrl.replace(/\/+$/, '')}/bot${token}/sendMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: chatId, text: text.slice(0, 4000), disable_web_page_preview: true }),
      signal: AbortSignal.timeout(timeoutMs),
    })
    const body = (await res.json().catch(() => ({}))) as {
      ok?: boolean
      description?: string
      parameters?: { retry_after?: number }
    }
    return {
      ok: res.ok && body.ok === true,
      retryAfterS: body.parameters?.retry_after,
      description: body.description ?? `HTTP ${res.status}`,
    }
  } catch (error) {
    return { ok: false, description: error instanceof Error ? error.message : String(error) }
  }
}

interface Claimed {
  id: number
  text: string
  telegram_attempts: number
}

const MAX_ATTEMPTS = 8

/** Sends every due Telegram alert once (claimed with SKIP LOCKED); answers how many went out. */
export async function drainTelegram(
  db: Db,
  opts: { baseUrl: string; backoffBaseMs?: number; logger?: WorkerLogger },
): Promise<number> {
  const log = opts.logger ?? quietLogger
  const backoff = opts.backoffBaseMs ?? 10_000
  let sent = 0
  const seen: number[] = []
  for (;;) {
    const result = (await db.execute(sql`
      update ${operatorAlerts} set telegram_attempts = telegram_attempts + 1,
        telegram_next_at = now() + interval '60 seconds'
      where id = (
        select id from ${operatorAlerts}
        where telegram_status = 'pending' and telegram_next_at <= now()
          ${
            seen.length
              ? sql`and id not in (${sql.join(
                  seen.map((id) => sql`${id}`),
                  sql`, `,
                )})`
              : sql``
          }
        order by id limit 1 for update skip locked
      )
      returning id, text, telegram_attempts`)) as unknown as { rows: Claimed[] }
    const alert = result.rows[0]
    if (!alert) return sent
    seen.push(alert.id)
    const settings = await loadSettings(db)
    if (!settings.telegramBotToken || !settings.telegramChatId) {
      await db.update(operatorAlerts).set({ telegramStatus: 'none' }).where(eq(operatorAlerts.id, alert.id))
      continue
    }
    const answer = await sendTelegram(
      opts.baseUrl,
      settings.telegramBotToken,
      settings.telegramChatId,
      alert.text,
    )
    if (answer.ok) {
      sent += 1
      await db
        .update(operatorAlerts)
        .set({ telegramStatus: 'sent', telegramError: null })
        .where(eq(operatorAlerts.id, alert.id))
      continue
    }
    const failed = alert.telegram_attempts >= MAX_ATTEMPTS
    const delay = Math.max((answer.retryAfterS ?? 0) * 1000, backoff * 2 ** (alert.telegram_attempts - 1))
    await db
      .update(operatorAlerts)
      .set({
        telegramStatus: failed ? 'failed' : 'pending',
        telegramError: (answer.description ?? 'failed').slice(0, 500),
        telegramNextAt: sql`now() + ${delay} * interval '1 millisecond'`,
      })
      .where(eq(operatorAlerts.id, alert.id))
    log.warn(
      { alertId: alert.id, error: answer.description },
      failed ? 'telegram alert failed for good' : 'telegram alert refused; will retry',
    )
  }
}
