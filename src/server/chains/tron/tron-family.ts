import { explorerTxUrl } from '../../../shared/dashboard'
import { normalizeTronAddress } from '../../../shared/tron-address'
import type { ChainFamily } from '../family'
import { createTronChain, normalizeTronTxHash } from './tron-chain'
import { parseTronProviders } from './tron-env'
import { createProviderPool } from './tron-pool'
import { TRON_TOKENS } from './tron-tokens'

// TRON as one family object (decision 050): one chain, USDT-TRC20 and TRX, read through the pool
// of the providers its settings list (TRON_PROVIDER_<n>_*, or the one of TRON_API_URL).

/** Public providers that ration clients without a key hard (TronGrid, TronScan). */
const KEYED_HOSTS = /(^|\.)(trongrid\.io|tronscan\.org)$/i

export const tronFamily: ChainFamily = {
  id: 'tron',
  chains: ['tron'],
  tokens: () => TRON_TOKENS,
  nativeCoin: () => TRON_TOKENS.find((t) => t.kind === 'native') ?? null,
  normalizeAddress: (text) => normalizeTronAddress(text.trim()),
  normalizeTxHash: normalizeTronTxHash,
  explorerTxUrl: (_chain, txId) => explorerTxUrl(txId),
  parseSettings: (source, base) => {
    const { providers, errors } = parseTronProviders(source, base)
    return { settings: { TRON_PROVIDERS: providers }, errors }
  },
  providerSettings: { key: 'TRON_API_KEY', providers: 'TRON_PROVIDER_<n>_*' },
  keylessProviders: (settings) =>
    settings.TRON_PROVIDERS.filter(
      (p) => p.keys.length === 0 && KEYED_HOSTS.test(new URL(p.url).hostname),
    ).map((p) => p.name),
  startBlock: (env) => env.FOLLOWER_START_BLOCK,
  // TRON is always followed: its one adapter holds the pool the follower, the buyer's hash check,
  // reconciliation and the operator's screens share.
  buildAdapters: async (env, deps) => [
    createTronChain({
      pool: createProviderPool({
        providers: env.TRON_PROVIDERS,
        usdtContract: env.USDT_CONTRACT,
        maxPages: deps.listPages,
        fetch: deps.fetch,
        onSetAside: (provider, reason) => deps.onSetAside('tron', provider, reason),
      }),
      blockIntervalMs: env.CHAIN_BLOCK_MS,
    }),
  ],
}
