import type { ChainId, TokenSymbol } from '../../shared/chains'
import { SOLANA_TOKENS } from '../chains/solana/solana-tokens'
import type { ChainToken } from './chain'
import { EVM_CHAINS, type EvmChainKey } from './evm/chains'
import { TRON_TOKENS } from './tron/tron-tokens'

// The tokens each chain accepts: one table in code, with each contract, symbol and decimals and
// where it comes from. Decimals are read from here wherever an amount is turned into dollars (the
// ledger's totals, sightings, reconciliation), never assumed. A chain's adapter offers its row; a
// test or the devchain may point a token at another contract (TRON: USDT_CONTRACT), never change
// its decimals.

export const TOKEN_TABLE: Readonly<Record<ChainId, readonly ChainToken[]>> = {
  // Each family's rows, with their sources: TRON's in tron/tron-tokens.ts, the EVM chains' in evm/chains.ts.
  tron: TRON_TOKENS,
  ...evmTokenRows(),
  // USDT and USDC mints, with their sources: chains/solana/solana-tokens.ts.
  solana: SOLANA_TOKENS,
}

function evmTokenRows(): Record<EvmChainKey, readonly ChainToken[]> {
  const rows = {} as Record<EvmChainKey, readonly ChainToken[]>
  for (const chain of EVM_CHAINS) {
    rows[chain.key] = chain.tokens.map((t) => ({ ...t, kind: 'stable' as const }))
  }
  return rows
}

/** A token of a chain by symbol, from the table; undefined when the chain does not take it. */
export function tableToken(chain: ChainId, symbol: TokenSymbol): ChainToken | undefined {
  return TOKEN_TABLE[chain].find((t) => t.symbol === symbol)
}

/** The decimals of a token a row names; a TypeError for a pair the table does not hold (our own rows never do). */
export function decimalsOf(chain: ChainId, symbol: TokenSymbol): number {
  const token = tableToken(chain, symbol)
  if (!token) throw new TypeError(`${symbol} on ${chain} is not in the token table`)
  return token.decimals
}
