import { z } from 'zod'

// The only reader of process.env. A bad value stops the process with a message naming the variable.

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()))

const minutes = (fallback: number) =>
  z.coerce
    .number()
    .positive()
    .max(7 * 24 * 60)
    .default(fallback)

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  PUBLIC_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  ADMIN_USERNAME: z.string().min(1).default('admin'),
  ADMIN_PASSWORD: optionalString,
  ADMIN_ALLOWED_USER_AGENTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split('||')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  TRON_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.trongrid.io'),
  TRON_API_KEY: optionalString,
  USDT_CONTRACT: z
    .string()
    .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'must be a TRON base58 address')
    .default('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
  EXPLORER_MAX_RPS: z.coerce.number().positive().max(100).default(5),
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\/\S+$/, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  MAIL_FROM: z.string().min(3).default('Stablecart <no-reply@localhost>'),
  PAYMENT_WINDOW_MINUTES: minutes(30),
  LATE_PAYMENT_GRACE_MINUTES: z.coerce
    .number()
    .min(0)
    .max(7 * 24 * 60)
    .default(60),
  PAYMENT_TOLERANCE: z.coerce.number().min(0).max(1000).default(2),
  /** The accepted shortfall is also at most this share of the order total. */
  PAYMENT_TOLERANCE_PERCENT: z.coerce.number().min(0).max(100).default(10),
  /** Rest of an address after its order ends before another order may take it; unset = the grace period. */
  ADDRESS_COOLDOWN_MINUTES: z.coerce
    .number()
    .min(0)
    .max(7 * 24 * 60)
    .optional(),
  /** First block the chain follower reads on a new database; unset = the solidified head at first start. */
  SCAN_START_BLOCK: z.coerce.number().int().positive().optional(),
  /** Blocks asked for in one request (at most 100, the explorer's limit). */
  SCAN_BATCH_BLOCKS: z.coerce.number().int().min(1).max(100).default(20),
  /** Pause between two looks at the chain when the follower has caught up. */
  SCAN_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
  /** Checkout limits: orders in their payment window per client address and per e-mail, and
   * creations per client address per minute (docs/decisions/015-hardening.md). */
  CHECKOUT_PENDING_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(5),
  CHECKOUT_PENDING_PER_EMAIL: z.coerce.number().int().min(1).max(100_000).default(3),
  CHECKOUT_CREATIONS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
  /** The pool guard (docs/decisions/021-pool-guard.md): addresses the unpaid orders of one network
   * (IPv4 /24, IPv6 /48) may hold or cool at once, and the share of the pool (percent) kept for
   * networks holding none. */
  CHECKOUT_HELD_PER_NETWORK: z.coerce.number().int().min(1).max(100_000).default(10),
  CHECKOUT_RESERVE_PERCENT: z.coerce.number().int().min(0).max(90).default(50),
  PRICE_SOURCE: z
    .string()
    .regex(/^(coingecko|binance|fixed:\d+(\.\d+)?)$/, 'must be coingecko, binance or fixed:<usd per TRX>')
    .default('coingecko'),
  /** Base URL of the price source's API; unset uses the source's public host. */
  PRICE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Let webhooks reach loopback and private networks (tests, an intranet receiver). */
  WEBHOOK_ALLOW_PRIVATE: z
    .enum(['true', 'false', ''])
    .default('false')
    .transform((v) => v === 'true'),
  /** Telegram Bot API base URL (a stand-in in tests). */
  TELEGRAM_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.telegram.org'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** A request slower than this is logged at warn level (every request is logged at debug). */
  LOG_SLOW_REQUEST_MS: z.coerce.number().int().min(1).max(600_000).default(1000),
  /**
   * Which proxies to believe for the client address and scheme (X-Forwarded-For/-Proto/-Host):
   * unset or false = none; true = every hop; a number = that many hops; else a comma-separated list
   * of proxy addresses or CIDR ranges.
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx): boolean | number | string[] => {
      const text = (v ?? '').trim()
      if (text === '' || text === 'false') return false
      if (text === 'true') return true
      if (/^\d+$/.test(text)) return Number(text)
      const list = text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
      if (list.every((entry) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(entry))) return list
      ctx.addIssue({
        code: 'custom',
        message: 'must be true, false, a hop count, or a comma-separated list of proxy addresses/CIDR ranges',
      })
      return z.NEVER
    }),
  /** Unset: GET /metrics is off. Set: /metrics answers with this bearer token only. */
  METRICS_TOKEN: optionalString.pipe(
    z.string().min(16, 'must be at least 16 characters (it guards the metrics)').optional(),
  ),
})

export type Env = z.infer<typeof envSchema>

export class EnvError extends Error {}

/** Parses the environment, listing every bad key at once. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source)
  if (result.success) return result.data
  const lines = result.error.issues.map((issue) => {
    const key = issue.path.join('.') || '(environment)'
    const value = source[String(issue.path[0])]
    return `  ${key}: ${issue.message}${value === undefined ? '' : ` (got ${JSON.stringify(value)})`}`
  })
  throw new EnvError(`Invalid configuration:\n${lines.join('\n')}`)
}
