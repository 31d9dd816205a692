import * as z from 'zod'
import { type FamilySettings, familyEnvFields, parseFamilySettings } from './chains/families'

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
  /** Where npm run backup writes by default and where the self-check looks for the newest backup. */
  BACKUP_DIR: z.string().min(1).default('./backups'),
  /** The self-check warns when the newest backup in BACKUP_DIR is older than this. */
  BACKUP_MAX_AGE_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(26),
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
  ...familyEnvFields,
  EXPLORER_MAX_RPS: z.coerce.number().positive().max(100).default(5),
  /** The payment page says detection is delayed when the follower is this far behind the chain. */
  PAYMENT_DELAY_NOTICE_MINUTES: minutes(5),
  /** The operator is alerted when the follower is this far behind the chain. */
  FOLLOWER_LAG_ALERT_MINUTES: minutes(5),
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
  FOLLOWER_START_BLOCK: z.coerce.number().int().positive().optional(),
  /** Blocks asked for in one request (at most 100, the explorer's limit). */
  FOLLOWER_BATCH_BLOCKS: z.coerce.number().int().min(1).max(100).default(20),
  /** Pause between two looks at the chain when the follower has caught up. */
  FOLLOWER_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
  /** How often ready refunds are looked for on the chain (one account-list request per ready refund). */
  REFUND_WATCH_MS: z.coerce.number().int().min(1000).max(3_600_000).default(30_000),
  /** An idle shop (nothing pending, nothing cooling down) is followed this often; 0 = every block (decision 045). */
  FOLLOWER_IDLE_EVERY_MS: z.coerce.number().int().min(0).max(55_000).default(45_000),
  /**
   * The account reads (decision 054): an open order's address is read every
   * ACCOUNT_READ_OPEN_EVERY_MS until its day's share ACCOUNT_READ_OPEN_PER_DAY (requests) would be
   * spent, then the share is spread over the open orders; every pool address at least every
   * ACCOUNT_READ_IDLE_EVERY_MS; the reads (and decision 045's net) run at most every ACCOUNT_READ_TICK_MS.
   */
  ACCOUNT_READ_OPEN_EVERY_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  ACCOUNT_READ_OPEN_PER_DAY: z.coerce.number().int().min(100).max(10_000_000).default(17_280),
  ACCOUNT_READ_IDLE_EVERY_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(7 * 86_400_000)
    .default(86_400_000),
  ACCOUNT_READ_TICK_MS: z.coerce.number().int().min(50).max(60_000).default(5_000),
  /** Sightings (decision 024): the head is watched for transfers to open orders; false turns it off. */
  SIGHTINGS: z
    .enum(['true', 'false', ''])
    .default('true')
    .transform((v) => v !== 'false'),
  /** The chain's block time in ms (TRON: 3000), for the sighting watcher's pace and the buyer's seconds left. */
  CHAIN_BLOCK_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  /** The payment page's stream (docs/decisions/066-the-payment-page-is-told.md): streams open at once
   * in all and per client address, and the heartbeat that keeps an idle one open behind proxies. */
  STATUS_STREAMS_MAX: z.coerce.number().int().min(1).max(1_000_000).default(5000),
  STATUS_STREAMS_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(20),
  STATUS_STREAM_HEARTBEAT_MS: z.coerce.number().int().min(50).max(120_000).default(15_000),
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
  /** "E-mail me my orders": asks per client address per 15 minutes, and per e-mail address per hour. */
  ORDER_LINKS_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(5),
  ORDER_LINKS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(3),
  PRICE_SOURCE: z
    .string()
    .regex(/^(coingecko|binance|fixed:\d+(\.\d+)?)$/, 'must be coingecko, binance or fixed:<usd per TRX>')
    .default('coingecko'),
  /** Base URL of the price source's API; unset uses the source's public host. */
  PRICE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Let webhooks reach loopback and private networks (tests, an intranet receiver). */
  /** Licence API (POST /v1/licenses/*): calls per minute from one client (IPv6 by its /64), and per licence key. */
  LICENCE_RATE_PER_CLIENT: z.coerce.number().int().min(1).max(10_000_000).default(60),
  LICENCE_RATE_PER_KEY: z.coerce.number().int().min(1).max(10_000_000).default(20),
  /** Invoice API (/api/v1/*, src/server/invoices): calls per minute from one client, and per API key. */
  API_RATE_PER_CLIENT: z.coerce.number().int().min(1).max(10_000_000).default(600),
  API_RATE_PER_KEY: z.coerce.number().int().min(1).max(10_000_000).default(300),
  /**
   * The epusdt order protocol (POST /api/v1/order/create-transaction, decision 056): off unless
   * the shared token is set; the sellers' fiat and its rate (fiat per stablecoin).
   */
  EPUSDT_TOKEN: optionalString.pipe(
    z
      .string()
      .min(16, 'must be at least 16 characters (it signs orders and callbacks)')
      .max(200, 'must be at most 200 characters')
      .optional(),
  ),
  EPUSDT_FIAT: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{3}$/, 'must be a three-letter currency code such as CNY')
    .transform((v) => v.toUpperCase())
    .default('CNY'),
  EPUSDT_RATE: z
    .string()
    .trim()
    .regex(/^(coingecko|fixed:\d{1,6}(\.\d{1,8})?)$/, 'must be coingecko or fixed:<fiat per stablecoin>')
    .default('coingecko'),
  /** Days a licence token (the offline proof activate and validate answer) stays valid, at most. */
  LICENCE_TOKEN_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
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

/** The settings common to the shop, before each family adds its part. */
export type BaseEnv = z.infer<typeof envSchema>

/** Every setting: the common ones and each family's part (chains/families.ts). */
export type Env = BaseEnv &
  FamilySettings & {
    /** Start-up notices about the configuration (a variable set under its old name). */
    NOTICES: string[]
  }

/** Old name → new name. An old name still works when the new one is unset, with a start-up notice. */
const RENAMED: Record<string, keyof z.infer<typeof envSchema>> = {
  SCAN_START_BLOCK: 'FOLLOWER_START_BLOCK',
  SCAN_BATCH_BLOCKS: 'FOLLOWER_BATCH_BLOCKS',
  SCAN_INTERVAL_MS: 'FOLLOWER_INTERVAL_MS',
}

function applyRenames(source: Record<string, string | undefined>): {
  source: Record<string, string | undefined>
  notices: string[]
} {
  const renamed = { ...source }
  const notices: string[] = []
  for (const [old, name] of Object.entries(RENAMED)) {
    if (source[old] === undefined) continue
    if (source[name] === undefined) {
      renamed[name] = source[old]
      notices.push(`${old} is now called ${name}; the old name still works, please rename it`)
    } else notices.push(`${old} is ignored: ${name} is set (${old} is its old name)`)
  }
  return { source: renamed, notices }
}

export class EnvError extends Error {}

/** Parses the environment, listing every bad key at once. */
export function parseEnv(given: Record<string, string | undefined> = process.env): Env {
  const { source, notices } = applyRenames(given)
  const result = envSchema.safeParse(source)
  const lines = result.success
    ? []
    : result.error.issues.map((issue) => {
        const key = issue.path.join('.') || '(environment)'
        const value = source[String(issue.path[0])]
        return `  ${key}: ${issue.message}${value === undefined ? '' : ` (got ${JSON.stringify(value)})`}`
      })
  if (result.success) {
    const families = parseFamilySettings(source, result.data)
    lines.push(...families.errors)
    if (lines.length === 0) return { ...result.data, ...families.settings, NOTICES: notices }
  }
  throw new EnvError(`Invalid configuration:\n${lines.join('\n')}`)
}
