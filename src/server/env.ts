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
  /** Checkout limits: orders in their payment window per client address and per e-mail, and
   * creations per client address per minute (docs/decisions/010-hardening.md). */
  CHECKOUT_PENDING_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(5),
  CHECKOUT_PENDING_PER_EMAIL: z.coerce.number().int().min(1).max(100_000).default(3),
  CHECKOUT_CREATIONS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
  PRICE_SOURCE: z
    .string()
    .regex(/^(coingecko|binance|fixed:\d+(\.\d+)?)$/, 'must be coingecko, binance or fixed:<usd per TRX>')
    .default('coingecko'),
  /** Base URL of the price source's API; unset uses the source's public host. */
  PRICE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Behind a reverse proxy: "true", a hop count, or the proxies' addresses (comma-separated), so
   * per-client limits see the buyer's address rather than the proxy's. Unset: no proxy is trusted. */
  TRUST_PROXY: optionalString.transform((v): boolean | number | string =>
    v === undefined || v === 'false' ? false : v === 'true' ? true : /^\d+$/.test(v) ? Number(v) : v,
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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
