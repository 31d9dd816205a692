import { providersOf, settingReader, unknownSettings } from '../evm/evm-env'
import type { ProviderConfig } from '../provider-failover'

// The operator's settings for Solana, read from the environment (as the EVM chains' are):
//   SOLANA_ENABLED=true                follow Solana and offer USDT · Solana and USDC · Solana
//   SOLANA_PROVIDER_<n>_URL            JSON-RPC endpoints, n = 1, 2, … in the order to ask them;
//                                      "{key}" in the URL is replaced by each of _KEYS in turn
//   SOLANA_PROVIDER_<n>_KEYS / _RPS / _PER_DAY / _NAME   as for the other chains' providers
//   SOLANA_POLL_MS                     the shortest time between two looks at the order addresses
//                                      (default 1000); a key's PER_DAY slows the looks to fit its day
//   SOLANA_START_SLOT                  first slot on a new database (default: the finalized slot)
//   SOLANA_FINAL_EVERY_MS              how often the finalized slot is asked for while orders are
//                                      watched (default 60000; the chain's clock, which ends orders)
//   SOLANA_PAY_LABEL                   the label of the Solana Pay request, which the buyer's wallet
//                                      shows (default: PUBLIC_URL's host name)

export interface SolanaConfig {
  enabled: boolean
  providers: ProviderConfig[]
  pollMs: number
  startSlot: number | null
  /** How often the finalized slot itself is asked for while orders are watched (the chain's clock for expiry). */
  finalEveryMs: number
  /** The Solana Pay request's label (the wallet shows who asks); null: none. */
  payLabel: string | null
}

const FIELDS = ['ENABLED', 'POLL_MS', 'START_SLOT', 'FINAL_EVERY_MS', 'PAY_LABEL'] as const
const P = 'SOLANA_'

export function parseSolanaEnv(source: Record<string, string | undefined>): {
  config: SolanaConfig
  errors: string[]
} {
  const errors: string[] = []
  const read = settingReader(source, errors)
  unknownSettings(P, FIELDS, source, errors)
  const enabledRaw = read(`${P}ENABLED`, 'ENABLED')
  const enabled = enabledRaw === 'true' || enabledRaw === '1'
  const providers = providersOf(P, source, read, errors).map(({ maxBlocks: _unused, ...p }) => p)
  for (const key of Object.keys(source)) {
    if (/^SOLANA_PROVIDER_\d+_MAX_BLOCKS$/.test(key))
      errors.push(`  ${key}: Solana providers have no block range setting`)
  }
  if (enabled && providers.length === 0)
    errors.push(`  ${P}PROVIDER_1_URL: Solana is enabled but has no JSON-RPC provider`)
  return {
    config: {
      enabled,
      providers,
      pollMs: read(`${P}POLL_MS`, 'POLL_MS') ?? 1000,
      startSlot: read(`${P}START_SLOT`, 'START_BLOCK') ?? null,
      finalEveryMs: read(`${P}FINAL_EVERY_MS`, 'POLL_MS') ?? 60_000,
      payLabel: read(`${P}PAY_LABEL`, 'NAME') ?? hostOf(source.PUBLIC_URL),
    },
    errors,
  }
}

function hostOf(url: string | undefined): string | null {
  try {
    return url ? new URL(url).hostname : null
  } catch {
    return null
  }
}
