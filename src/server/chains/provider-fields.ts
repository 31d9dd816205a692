import * as z from 'zod'

// The fields of one numbered provider in a family's settings (<PREFIX>PROVIDER_<n>_URL / _KEYS /
// _RPS / _PER_DAY / _NAME), the same for every family but for what a key may hold: a key a
// family sends in a header may be any printable text, one it puts in the URL only URL-safe
// characters. Each family's settings parser takes these with its keys' pattern.

/** What a family's provider keys may hold, and the error that says so. */
export interface KeyPattern {
  pattern: RegExp
  message: string
}

/** The schemas of a provider's fields; its keys are split at commas and each checked against `keys`. */
export function providerFieldSchemas(keys: KeyPattern) {
  return {
    URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }),
    KEYS: z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(keys.pattern, keys.message)).max(50)),
    RPS: z.coerce.number().positive('must be a positive number').max(1000),
    PER_DAY: z.coerce.number().int('must be a whole number').positive('must be positive').max(1_000_000_000),
    NAME: z
      .string()
      .trim()
      .regex(/^[\w .:-]{1,40}$/, 'must be 1–40 letters, digits, spaces or . : _ -'),
  }
}
