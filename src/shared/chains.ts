// The chains and tokens the shop can know, as short ids stored on every ledger, sighting, follower
// and order row. Which of them a shop takes is the operator's choice (the server's chain registry);
// this list only names them, for the server and the browser alike. No schema library here: the
// storefront's first load uses these lists (the schemas are in network-schemas.ts).

export const chainIds = ['tron', 'ethereum', 'bsc', 'polygon', 'arbitrum', 'base', 'solana'] as const
export type ChainId = (typeof chainIds)[number]

/** A family is one implementation: TRON, or every EVM chain through the same code. */
export const chainFamilies = ['tron', 'evm', 'solana'] as const
export type ChainFamilyId = (typeof chainFamilies)[number]

export const familyOfChain: Record<ChainId, ChainFamilyId> = {
  tron: 'tron',
  ethereum: 'evm',
  bsc: 'evm',
  polygon: 'evm',
  arbitrum: 'evm',
  base: 'evm',
  solana: 'solana',
}

/**
 * The shop's first chain and its family: what a call that names no chain means (the API before
 * networks existed: TRON's USDT), the one a new shop is set up with, and the one whose pages keep
 * their first form (no network line, its own wording). Only a request's edge reads it: below it,
 * the order row carries its chain.
 */
export const firstChain: ChainId = 'tron'
export const firstFamily: ChainFamilyId = familyOfChain[firstChain]

/** Every token symbol a row may carry. A chain accepts a subset (its token table). */
export const tokenSymbols = ['USDT', 'USDC', 'TRX'] as const
export type TokenSymbol = (typeof tokenSymbols)[number]

/** Tokens worth one US dollar per whole token (counted 1:1); the others need a rate. */
export const stablecoins: ReadonlySet<TokenSymbol> = new Set(['USDT', 'USDC'])
