import type { ChainAdapter } from '../chain'
import type { ChainFamily } from '../family'
import type { SolanaAdapterOptions } from './solana-adapter'
import {
  associatedTokenAccount,
  normalizeSolanaAddress,
  normalizeSolanaSignature,
  solanaPoolAddressProblem,
} from './solana-address'
import { parseSolanaEnv, type SolanaConfig } from './solana-env'
import { solanaExplorerTxUrl, solanaPayUri } from './solana-links'
import { SOLANA_NATIVE, SOLANA_TOKENS } from './solana-tokens'

// The Solana family in one object: what the rest of the shop needs to know of it (its settings,
// adapter, tokens, native coin, address and signature forms, explorer links, payment URI), so
// wiring it in is one line where the families are listed. The adapter's code is loaded only when
// Solana is enabled (decision 067).

/** The enabled chain's adapter (none when SOLANA_ENABLED is not set, and its code not loaded). */
async function solanaAdapters(
  config: SolanaConfig,
  opts: SolanaAdapterOptions = {},
): Promise<ChainAdapter[]> {
  if (!config.enabled) return []
  const { createSolanaAdapter } = await import('./solana-adapter')
  return [createSolanaAdapter(config, opts)]
}

export const solanaFamily = {
  id: 'solana' as const,
  chains: ['solana'] as const,
  /** SOLANA_* settings; errors name the variable, one line each. */
  parseEnv: parseSolanaEnv,
  adapters: solanaAdapters,
  tokens: () => SOLANA_TOKENS,
  native: SOLANA_NATIVE,
  /** Base58, 32 bytes, case-sensitive: the text as it is. */
  normalizeAddress: normalizeSolanaAddress,
  /** Why a pool line is refused (not base58 of 32 bytes, or not a wallet key); null when it is fine. */
  poolAddressProblem: solanaPoolAddressProblem,
  /** Base58, 64 bytes, case-sensitive: never lowercased. */
  normalizeTxId: normalizeSolanaSignature,
  /** The ChainFamily's explorer link (decision 050): one chain, so the chain is not needed. */
  explorerTxUrl: (_chain: string, txId: string) => solanaExplorerTxUrl(txId),
  explorerAddressUrl: (address: string) => `https://solscan.io/account/${encodeURIComponent(address)}`,
  paymentUri: solanaPayUri,
  tokenAccount: associatedTokenAccount,
  // The family object's shape (chains/family.ts): the shop takes SPL stablecoins, not SOL.
  nativeCoin: () => null,
  normalizeTxHash: normalizeSolanaSignature,
  parseSettings: (source) => {
    const { config, errors } = parseSolanaEnv(source)
    return { settings: { SOLANA: config }, errors }
  },
  providerSettings: { key: 'SOLANA_PROVIDER_<n>_KEYS', providers: 'SOLANA_PROVIDER_<n>_*' },
  startBlock: (env) => env.SOLANA.startSlot ?? undefined,
  buildAdapters: (env, deps) =>
    solanaAdapters(env.SOLANA, {
      fetch: deps.fetch,
      onSetAside: (provider, reason) => deps.onSetAside('solana', provider, reason),
    }),
} satisfies ChainFamily & Record<string, unknown>

export type { SolanaConfig }
