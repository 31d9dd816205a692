import * as z from 'zod'
import { adminKeyField } from './rpc'

// The operator's settings, kept in the database and edited on the admin's Settings tab.
// Secrets (the Telegram bot token) are written, never read back: the browser only learns
// whether one is set.

export const alertKinds = [
  'order_paid',
  'payment_unmatched',
  'stock_low',
  'pool_low',
  'mail_failing',
  'scanner_stalled',
  'providers_down',
  'provider_quota',
  'provider_set_aside',
] as const
export type AlertKind = (typeof alertKinds)[number]

const email = z.email('must be an e-mail address').max(200)

/** What the server keeps (secrets included). */
export const storedSettingsSchema = z.object({
  operatorEmail: email.nullable().default(null),
  telegramBotToken: z.string().nullable().default(null),
  telegramChatId: z.string().nullable().default(null),
  alerts: z
    .object(
      Object.fromEntries(alertKinds.map((k) => [k, z.boolean().default(true)])) as Record<
        AlertKind,
        z.ZodDefault<z.ZodBoolean>
      >,
    )
    .prefault({}),
  /** A product with fewer free keys than this raises stock.low (0 turns it off). */
  lowStockThreshold: z.number().int().min(0).max(100_000).default(5),
  /** While payment detection lags, new checkouts are refused instead of warned about. */
  refuseCheckoutsWhileDelayed: z.boolean().default(false),
})
export type StoredSettings = z.infer<typeof storedSettingsSchema>

/** What the browser sees. */
export interface AdminSettings {
  operator_email: string | null
  telegram_chat_id: string | null
  telegram_bot_token_set: boolean
  alerts: Record<AlertKind, boolean>
  low_stock_threshold: number
  refuse_checkouts_while_delayed: boolean
  /** From the environment, shown read-only. */
  payment_tolerance_usd: number
  payment_tolerance_percent: number | null
}

const telegramToken = z
  .string()
  .trim()
  .max(200)
  .regex(/^(\d{3,20}:[A-Za-z0-9_-]{20,100})?$/, 'must look like 123456:ABC… (from @BotFather)')

export const updateSettingsInputSchema = z
  .object({
    ...adminKeyField,
    p_settings: z
      .object({
        operator_email: z.union([email, z.literal('')], { error: 'must be an e-mail address' }).nullable(),
        telegram_chat_id: z
          .string()
          .trim()
          .max(100)
          .regex(/^(-?\d{1,20}|@[A-Za-z0-9_]{4,64})?$/, 'must be a numeric chat id or @channel')
          .nullable(),
        /** Omitted keeps the saved token; '' removes it. */
        telegram_bot_token: telegramToken.optional(),
        alerts: z.object(
          Object.fromEntries(alertKinds.map((k) => [k, z.boolean()])) as Record<AlertKind, z.ZodBoolean>,
        ),
        low_stock_threshold: z
          .number('must be a whole number')
          .int('must be a whole number')
          .min(0)
          .max(100_000),
        /** Omitted keeps the saved choice. */
        refuse_checkouts_while_delayed: z.boolean().optional(),
      })
      .strict(),
  })
  .strict()
