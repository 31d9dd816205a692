import * as z from 'zod'
import { evmChecksum } from '../../../shared/evm-address'
import type { ProviderConfig } from '../provider-failover'
import { providerFieldSchemas } from '../provider-fields'
import { EVM_CHAINS, type EvmChainKey, type EvmChainSpec, type EvmToken } from './chains'

// The operator's settings for each EVM chain, read from the environment:
//   EVM_<CHAIN>_ENABLED=true                  follow the chain and offer it at checkout
//   EVM_<CHAIN>_PROVIDER_<n>_URL              JSON-RPC endpoints, n = 1, 2, … in the order to ask them;
//                                             "{key}" in the URL is replaced by each of _KEYS in turn
//   EVM_<CHAIN>_PROVIDER_<n>_KEYS / _RPS / _PER_DAY / _NAME   as for TRON's providers
//   EVM_<CHAIN>_PROVIDER_<n>_MAX_BLOCKS       widest eth_getLogs block range the provider allows (default 500)
//   EVM_<CHAIN>_CONFIRMATIONS                 blocks on top before a transfer is final (default: per chain)
//   EVM_<CHAIN>_START_BLOCK                   first block on a new database (default: the final head)
//   EVM_<CHAIN>_POLL_MS                       how often the follower looks once caught up (default: per chain)
//   EVM_<CHAIN>_TOKENS                        replaces the chain's accepted tokens (a local test node's
//                                             contracts): JSON [{"symbol":"USDT","contract":"0x…","decimals":6}]
// <CHAIN> is ETHEREUM, BSC, POLYGON, ARBITRUM or BASE.

/** A JSON-RPC provider: "{key}" in its URL is replaced by each key in turn (provider-failover's rules). */
export interface EvmProviderConfig extends ProviderConfig {
  /** Widest eth_getLogs range, in blocks, this provider answers. */
  maxBlocks: number
}

/** The endpoint of one key of a provider. */
export function endpointOf(config: ProviderConfig, key: string | null): string {
  return key === null ? config.url : config.url.replace(KEY_SLOT, encodeURIComponent(key))
}

// A raw "{key}" in the URL is percent-encoded by the URL parser: both spellings are the slot.
const KEY_SLOT = /\{key\}|%7Bkey%7D/i

export interface EvmChainConfig {
  spec: EvmChainSpec
  enabled: boolean
  providers: EvmProviderConfig[]
  confirmations: number
  /** How often the follower looks once caught up, ms. */
  pollMs: number
  startBlock: number | null
  tokens: readonly EvmToken[]
}

const MAX_PROVIDERS = 20
const PROVIDER_FIELDS = ['URL', 'KEYS', 'RPS', 'PER_DAY', 'NAME', 'MAX_BLOCKS'] as const
type ProviderField = (typeof PROVIDER_FIELDS)[number]
const CHAIN_FIELDS = ['ENABLED', 'CONFIRMATIONS', 'START_BLOCK', 'TOKENS', 'POLL_MS'] as const

export const fieldSchemas = {
  // The key goes into the provider's URL ("{key}"): URL-safe characters only.
  ...providerFieldSchemas({
    pattern: /^[\w.~-]{1,200}$/,
    message: 'keys are letters, digits and . _ ~ - only',
  }),
  MAX_BLOCKS: z.coerce.number().int('must be a whole number').min(1).max(100_000),
  ENABLED: z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' }),
  CONFIRMATIONS: z.coerce.number().int('must be a whole number').min(1).max(10_000),
  START_BLOCK: z.coerce.number().int('must be a whole number').min(0),
  POLL_MS: z.coerce.number().int('must be a whole number').min(100).max(600_000),
  TOKENS: z
    .string()
    .transform((v, ctx) => {
      try {
        return JSON.parse(v) as unknown
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be JSON' })
        return z.NEVER
      }
    })
    .pipe(
      z
        .array(
          z.object({
            symbol: z.enum(['USDT', 'USDC']),
            contract: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'contract is not an address'),
            decimals: z.number().int().min(0).max(36),
          }),
        )
        .min(1, 'must list at least one token'),
    ),
}

function prefix(key: EvmChainKey): string {
  return `EVM_${key.toUpperCase()}_`
}

/** Every EVM chain's settings; errors name the variable, one line each. */
export function parseEvmEnv(source: Record<string, string | undefined>): {
  chains: EvmChainConfig[]
  errors: string[]
} {
  const errors: string[] = []
  const known = new Set(EVM_CHAINS.map((c) => prefix(c.key)))
  for (const key of Object.keys(source)) {
    if (!key.startsWith('EVM_') || source[key] === undefined) continue
    if (![...known].some((p) => key.startsWith(p))) {
      errors.push(`  ${key}: unknown chain (use ${[...known].map((p) => `${p}…`).join(', ')})`)
    }
  }
  const chains = EVM_CHAINS.map((spec) => chainConfig(spec, source, errors))
  return { chains, errors }
}

/** Reads one setting through its field's schema; a bad value is one line in `errors`, naming the variable. */
export function settingReader(source: Record<string, string | undefined>, errors: string[]) {
  return <F extends keyof typeof fieldSchemas>(variable: string, field: F) => {
    const raw = source[variable]
    if (raw === undefined || raw.trim() === '') return undefined
    const parsed = fieldSchemas[field].safeParse(raw.trim())
    if (parsed.success) return parsed.data as z.infer<(typeof fieldSchemas)[F]>
    errors.push(`  ${variable}: ${parsed.error.issues[0]?.message} (got ${JSON.stringify(raw)})`)
    return undefined
  }
}

/** A line in `errors` for each variable under prefix `p` that is neither one of `fields` nor a provider's. */
export function unknownSettings(
  p: string,
  fields: readonly string[],
  source: Record<string, string | undefined>,
  errors: string[],
): void {
  for (const key of Object.keys(source)) {
    if (!key.startsWith(p) || source[key] === undefined) continue
    const rest = key.slice(p.length)
    if (fields.includes(rest) || /^PROVIDER_\d+_[A-Z_]+$/.test(rest)) continue
    errors.push(
      `  ${key}: unknown setting (use ${fields.map((f) => p + f).join(', ')}, ${p}PROVIDER_<n>_URL …)`,
    )
  }
}

function chainConfig(
  spec: EvmChainSpec,
  source: Record<string, string | undefined>,
  errors: string[],
): EvmChainConfig {
  const p = prefix(spec.key)
  const read = settingReader(source, errors)
  unknownSettings(p, CHAIN_FIELDS, source, errors)
  const enabledRaw = read(`${p}ENABLED`, 'ENABLED')
  const enabled = enabledRaw === 'true' || enabledRaw === '1'
  const providers = providersOf(p, source, read, errors)
  if (enabled && providers.length === 0) {
    errors.push(`  ${p}PROVIDER_1_URL: ${spec.name} is enabled but has no JSON-RPC provider`)
  }
  const tokens = read(`${p}TOKENS`, 'TOKENS')?.map((t) => ({
    symbol: t.symbol,
    contract: evmChecksum(t.contract),
    decimals: t.decimals,
  }))
  // Another contract may stand in for a token (a local node's), never another token or other decimals.
  for (const t of tokens ?? []) {
    const listed = spec.tokens.find((s) => s.symbol === t.symbol)
    if (!listed) errors.push(`  ${p}TOKENS: ${spec.name} does not take ${t.symbol}`)
    else if (listed.decimals !== t.decimals) {
      errors.push(
        `  ${p}TOKENS: ${t.symbol} on ${spec.name} has ${listed.decimals} decimals, not ${t.decimals}`,
      )
    }
  }
  return {
    spec,
    enabled,
    providers,
    confirmations: read(`${p}CONFIRMATIONS`, 'CONFIRMATIONS') ?? spec.defaultConfirmations,
    pollMs: read(`${p}POLL_MS`, 'POLL_MS') ?? spec.defaultPollMs,
    startBlock: read(`${p}START_BLOCK`, 'START_BLOCK') ?? null,
    tokens: tokens ?? spec.tokens,
  }
}

/** The numbered providers under prefix `p` (EVM chains' and the Solana family's settings). */
export function providersOf(
  p: string,
  source: Record<string, string | undefined>,
  read: <F extends keyof typeof fieldSchemas>(
    variable: string,
    field: F,
  ) => z.infer<(typeof fieldSchemas)[F]> | undefined,
  errors: string[],
): EvmProviderConfig[] {
  const pattern = new RegExp(`^${p}PROVIDER_(\\d+)_([A-Z_]+)$`)
  const indexes = new Set<number>()
  for (const [key, value] of Object.entries(source)) {
    const match = pattern.exec(key)
    if (!match || value === undefined) continue
    const index = Number(match[1])
    if (!(PROVIDER_FIELDS as readonly string[]).includes(match[2] as string)) {
      errors.push(
        `  ${key}: unknown setting (use ${PROVIDER_FIELDS.map((f) => `${p}PROVIDER_${index}_${f}`).join(', ')})`,
      )
    } else if (!(index >= 1 && index <= MAX_PROVIDERS)) {
      errors.push(`  ${key}: providers are numbered 1 to ${MAX_PROVIDERS}`)
    } else indexes.add(index)
  }
  const providers: EvmProviderConfig[] = []
  const names = new Set<string>()
  for (let index = 1; index <= indexes.size; index++) {
    const v = (field: ProviderField) => `${p}PROVIDER_${index}_${field}`
    if (!indexes.has(index)) {
      errors.push(`  ${v('URL')}: missing (providers are numbered 1, 2, … without gaps)`)
      break
    }
    const url = read(v('URL'), 'URL')
    if (source[v('URL')] === undefined) {
      errors.push(`  ${v('URL')}: required when other ${p}PROVIDER_${index}_* settings are given`)
    }
    const keys = read(v('KEYS'), 'KEYS') ?? []
    // Unnamed, a provider is called by its host (as TRON's are), numbered when the host repeats.
    const host = url ? new URL(url).host : `provider ${index}`
    const name = read(v('NAME'), 'NAME') ?? (names.has(host) ? `${host} #${index}` : host)
    if (names.has(name)) errors.push(`  ${v('NAME')}: ${JSON.stringify(name)} is used twice`)
    names.add(name)
    if (!url) continue
    if (keys.length > 0 && !KEY_SLOT.test(url)) {
      errors.push(`  ${v('URL')}: put {key} where the key goes, since ${v('KEYS')} is set`)
      continue
    }
    if (keys.length === 0 && KEY_SLOT.test(url)) {
      errors.push(`  ${v('KEYS')}: the URL has {key} but no keys are given`)
      continue
    }
    providers.push({
      name,
      url,
      keys,
      rps: read(v('RPS'), 'RPS') ?? 10,
      perDay: read(v('PER_DAY'), 'PER_DAY') ?? null,
      maxBlocks: read(v('MAX_BLOCKS'), 'MAX_BLOCKS') ?? 500,
    })
  }
  return providers
}
