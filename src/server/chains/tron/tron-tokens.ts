import type { ChainToken } from '../chain'

// TRON's row of the token table (token-table.ts): Tether's USDT-TRC20 (tether.to, "Supported
// protocols"); TRX is the chain's own coin (sun = 10^-6 TRX).
export const TRON_TOKENS: readonly ChainToken[] = [
  { symbol: 'USDT', contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', decimals: 6, kind: 'stable' },
  { symbol: 'TRX', contract: null, decimals: 6, kind: 'native' },
]
