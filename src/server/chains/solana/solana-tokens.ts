import type { ChainToken } from '../chain'

// The Solana family's accepted tokens: SPL Token mints, 6 decimals each. Sources: Tether's
// "Supported protocols" page (USDT on Solana) and Circle's "USDC on Solana" page (the mint
// addresses), both also listed by the SPL token registry. A mint is compared in its base58 form,
// case-sensitive: a token account of any other mint (a counterfeit "USDT") never counts.

export const SOLANA_USDT_MINT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB'
export const SOLANA_USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'

export const SOLANA_TOKENS: readonly ChainToken[] = [
  { symbol: 'USDT', contract: SOLANA_USDT_MINT, decimals: 6, kind: 'stable' },
  { symbol: 'USDC', contract: SOLANA_USDC_MINT, decimals: 6, kind: 'stable' },
]

/** The chain's own coin, for fees only: never accepted as payment. 1 SOL = 10^9 lamports. */
export const SOLANA_NATIVE = { symbol: 'SOL', decimals: 9 } as const
