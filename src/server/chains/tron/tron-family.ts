import { explorerTxUrl } from '../../../shared/dashboard'
import { normalizeTronAddress } from '../../../shared/tron-address'
import type { ChainFamily } from '../family'
import { createTronChain, normalizeTronTxHash } from './tron-chain'
import { parseTronProviders } from './tron-env'
import { TRON_TOKENS } from './tron-tokens'

// TRON as one family object (decision 050): one chain, USDT-TRC20 and TRX.

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
  startBlock: (env) => env.FOLLOWER_START_BLOCK,
  buildAdapters: async (env, deps) => [
    createTronChain({ pool: deps.tron, blockIntervalMs: env.CHAIN_BLOCK_MS }),
  ],
}
