import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { operatorAlerts } from '../db/schema'
import { quietLogger, type WorkerLogger } from '../lib/logger'
import { drainOutbox, type OutboxTable, retryPlan } from '../lib/outbox'
import { loadSettings } from '../settings/settings'

// Sends queued alerts with the Telegram Bot API's sendMessage, through the shared outbox loop
// (lib/outbox.ts). The base URL is configurable
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

const TELEGRAM_OUTBOX: OutboxTable = {
  table: operatorAlerts,
  status: 'telegram_status',
  attempts: 'telegram_attempts',
  nextAt: 'telegram_next_at',
  returning: ['text', 'telegram_attempts'],
}

/** Sends every due Telegram alert once (the shared outbox loop); answers how many went out. */
export async function drainTelegram(
  db: Db,
  opts: { baseUrl: string; backoffBaseMs?: number; logger?: WorkerLogger },
): Promise<number> {
  const log = opts.logger ?? quietLogger
  const retry = { baseMs: opts.backoffBaseMs ?? 10_000, maxMs: 60 * 60_000, maxAttempts: 8 }
  return drainOutbox<Claimed>(db, TELEGRAM_OUTBOX, 60_000, async (alert) => {
    const settings = await loadSettings(db)
    if (!settings.telegramBotToken || !settings.telegramChatId) {
      await db.update(operatorAlerts).set({ telegramStatus: 'none' }).where(eq(operatorAlerts.id, alert.id))
      return false
    }
    const answer = await sendTelegram(
      opts.baseUrl,
      settings.telegramBotToken,
      settings.telegramChatId,
      alert.text,
    )
    if (answer.ok) {
      await db
        .update(operatorAlerts)
        .set({ telegramStatus: 'sent', telegramError: null })
        .where(eq(operatorAlerts.id, alert.id))
      return true
    }
    const { delayMs, final } = retryPlan(alert.telegram_attempts, retry, {
      retryAfterMs: (answer.retryAfterS ?? 0) * 1000,
    })
    await db
      .update(operatorAlerts)
      .set({
        telegramStatus: final ? 'failed' : 'pending',
        telegramError: (answer.description ?? 'failed').slice(0, 500),
        telegramNextAt: sql`now() + ${delayMs} * interval '1 millisecond'`,
      })
      .where(eq(operatorAlerts.id, alert.id))
    log.warn(
      { alertId: alert.id, error: answer.description },
      final ? 'telegram alert failed for good' : 'telegram alert refused; will retry',
    )
    return false
  })
}
