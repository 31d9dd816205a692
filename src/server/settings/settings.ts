import { eq, sql } from 'drizzle-orm'
import type { z } from 'zod'
import { adminOnlyPayloadSchema } from '../../shared/rpc'
import type { AdminSettings, StoredSettings } from '../../shared/settings'
import { storedSettingsSchema, updateSettingsInputSchema } from '../../shared/settings'
import { onSuccess } from '../audit/audit-log'
import type { Db } from '../db/client'
import { shopSettings } from '../db/schema'
import type { Env } from '../env'
import { defineRpc } from '../rpc'

// Settings the operator edits in the admin (not environment variables). One jsonb row, read
// through the schema so a missing field takes its default and an old row never breaks a start.

export async function loadSettings(db: Db): Promise<StoredSettings> {
  const [row] = await db.select().from(shopSettings).where(eq(shopSettings.id, 1))
  const parsed = storedSettingsSchema.safeParse(row?.settings ?? {})
  return parsed.success ? parsed.data : storedSettingsSchema.parse({})
}

export async function saveSettings(db: Db, settings: StoredSettings): Promise<void> {
  await db
    .insert(shopSettings)
    .values({ id: 1, settings })
    .onConflictDoUpdate({ target: shopSettings.id, set: { settings, updatedAt: sql`now()` } })
}

/** The browser's view: the bot token only as "set". */
export function toAdminSettings(
  s: StoredSettings,
  env: Pick<Env, 'PAYMENT_TOLERANCE' | 'PAYMENT_TOLERANCE_PERCENT'>,
): AdminSettings {
  return {
    operator_email: s.operatorEmail,
    telegram_chat_id: s.telegramChatId,
    telegram_bot_token_set: Boolean(s.telegramBotToken),
    alerts: s.alerts,
    low_stock_threshold: s.lowStockThreshold,
    refuse_checkouts_while_delayed: s.refuseCheckoutsWhileDelayed,
    payment_tolerance_usd: env.PAYMENT_TOLERANCE,
    payment_tolerance_percent: env.PAYMENT_TOLERANCE_PERCENT,
  }
}

export function applyUpdate(
  current: StoredSettings,
  input: z.infer<typeof updateSettingsInputSchema>['p_settings'],
): StoredSettings {
  return {
    operatorEmail: input.operator_email || null,
    telegramChatId: input.telegram_chat_id || null,
    telegramBotToken:
      input.telegram_bot_token === undefined ? current.telegramBotToken : input.telegram_bot_token || null,
    alerts: input.alerts,
    lowStockThreshold: input.low_stock_threshold,
    refuseCheckoutsWhileDelayed: input.refuse_checkouts_while_delayed ?? current.refuseCheckoutsWhileDelayed,
  }
}

export function settingsRpcs(db: Db, env: Env) {
  return [
    defineRpc({
      name: 'secure_fetch_settings',
      input: adminOnlyPayloadSchema,
      admin: true,
      handler: async () => ({ success: true, settings: toAdminSettings(await loadSettings(db), env) }),
    }),
    defineRpc({
      name: 'secure_update_settings',
      input: updateSettingsInputSchema,
      admin: true,
      audit: {
        // Which fields, never a value (the bot token is a secret).
        entries: onSuccess(({ input, actor }) => ({
          action: 'settings_update',
          actor,
          details: { fields: Object.keys(input.p_settings ?? {}) },
        })),
      },
      handler: async (input) => {
        const next = applyUpdate(await loadSettings(db), input.p_settings)
        await saveSettings(db, next)
        return { success: true, settings: toAdminSettings(next, env) }
      },
    }),
  ]
}
