import * as z from 'zod'
import { providerFieldSchemas } from '../provider-fields'

// TRON's settings: TRON_API_URL / TRON_API_KEY / TRON_API_PER_DAY (one provider), or
// TRON_PROVIDER_<n>_* (several, in order), and USDT_CONTRACT. The shop's environment (env.ts) takes
// these fields and this parser; errors name the variable, one line each.

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()))

/** TRON's fields of the shop's environment schema. */
export const tronEnvFields = {
  /** The one-provider case; TRON_PROVIDER_<n>_* list several (see parseTronProviders below). */
  TRON_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.trongrid.io'),
  /** One key, or several separated by commas (they take turns). */
  TRON_API_KEY: optionalString,
  /** Requests a day each key of TRON_API_URL may make; unset = no daily limit. */
  TRON_API_PER_DAY: optionalString.pipe(
    z.coerce.number<string | undefined>().int().positive().max(1_000_000_000).optional(),
  ),
  USDT_CONTRACT: z
    .string()
    .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'must be a TRON base58 address')
    .default('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
}

const tronEnvSchema = z.object(tronEnvFields)

/** One TRON HTTP API provider: its keys take turns, each within the provider's limits. */
export interface TronProviderConfig {
  name: string
  url: string
  /** Empty: requests go without a key. */
  keys: string[]
  /** Requests per second, per key. */
  rps: number
  /** Requests a day, per key; null = no daily limit. */
  perDay: number | null
}

const PROVIDER_VAR = /^TRON_PROVIDER_(\d+)_([A-Z_]+)$/
const PROVIDER_FIELDS = ['URL', 'KEYS', 'RPS', 'PER_DAY', 'NAME'] as const
const MAX_PROVIDERS = 20

// TRON's providers take their keys in a header: any printable text without spaces.
const providerFields = providerFieldSchemas({
  pattern: /^[\x21-\x7e]{1,200}$/,
  message: 'keys are printable, without spaces',
})

/** TRON_PROVIDER_<n>_URL / _KEYS / _RPS / _PER_DAY / _NAME, n = 1, 2, … without gaps. */
export function parseTronProviders(
  source: Record<string, string | undefined>,
  base: z.infer<typeof tronEnvSchema> & { EXPLORER_MAX_RPS: number },
): { providers: TronProviderConfig[]; errors: string[] } {
  const errors: string[] = []
  const byIndex = new Map<number, Partial<Record<(typeof PROVIDER_FIELDS)[number], string>>>()
  for (const [key, value] of Object.entries(source)) {
    const match = PROVIDER_VAR.exec(key)
    if (!match || value === undefined) continue
    const index = Number(match[1])
    const field = match[2] as (typeof PROVIDER_FIELDS)[number]
    if (!PROVIDER_FIELDS.includes(field)) {
      errors.push(
        `  ${key}: unknown setting (use ${PROVIDER_FIELDS.map((f) => `TRON_PROVIDER_${index}_${f}`).join(', ')})`,
      )
      continue
    }
    if (!(index >= 1 && index <= MAX_PROVIDERS)) {
      errors.push(`  ${key}: providers are numbered 1 to ${MAX_PROVIDERS}`)
      continue
    }
    byIndex.set(index, { ...byIndex.get(index), [field]: value })
  }
  if (byIndex.size === 0) {
    return {
      providers: [
        {
          name: new URL(base.TRON_API_URL).host,
          url: base.TRON_API_URL,
          keys: (base.TRON_API_KEY ?? '')
            .split(',')
            .map((k) => k.trim())
            .filter(Boolean),
          rps: base.EXPLORER_MAX_RPS,
          perDay: base.TRON_API_PER_DAY ?? null,
        },
      ],
      errors,
    }
  }
  const providers: TronProviderConfig[] = []
  const names = new Set<string>()
  for (let index = 1; index <= byIndex.size; index++) {
    const fields = byIndex.get(index)
    if (!fields) {
      errors.push(`  TRON_PROVIDER_${index}_URL: missing (providers are numbered 1, 2, … without gaps)`)
      break
    }
    const read = <F extends keyof typeof providerFields>(field: F) => {
      const raw = fields[field]
      if (raw === undefined || raw.trim() === '') return undefined
      const parsed = providerFields[field].safeParse(raw.trim())
      if (parsed.success) return parsed.data as z.infer<(typeof providerFields)[F]>
      errors.push(
        `  TRON_PROVIDER_${index}_${field}: ${parsed.error.issues[0]?.message} (got ${JSON.stringify(raw)})`,
      )
      return undefined
    }
    const url = read('URL')
    if (fields.URL === undefined || fields.URL.trim() === '') {
      errors.push(
        `  TRON_PROVIDER_${index}_URL: required when other TRON_PROVIDER_${index}_* settings are given`,
      )
    }
    const name = read('NAME') ?? (url ? `${index}: ${new URL(url).host}` : String(index))
    if (names.has(name)) errors.push(`  TRON_PROVIDER_${index}_NAME: ${JSON.stringify(name)} is used twice`)
    names.add(name)
    if (url) {
      providers.push({
        name,
        url,
        keys: read('KEYS') ?? [],
        rps: read('RPS') ?? base.EXPLORER_MAX_RPS,
        perDay: read('PER_DAY') ?? null,
      })
    }
  }
  return { providers, errors }
}
