import { z } from 'zod'
import {
  type ChainFamilyId,
  type ChainId,
  chainFamilies,
  chainIdSchema,
  stablecoins,
  type TokenSymbol,
  tokenSymbolSchema,
} from './chains'

// The networks a buyer may pay on (secure_get_payment_networks): each enabled chain with the tokens
// it accepts. The checkout offers one choice per chain and stablecoin ("USDT · BNB Smart Chain"); a
// shop with TRON alone offers one, and the checkout then shows no choice at all.

/** The name a buyer knows each network by (the same in every language). */
export const chainNames: Record<ChainId, string> = {
  tron: 'TRON',
  ethereum: 'Ethereum',
  bsc: 'BNB Smart Chain',
  polygon: 'Polygon PoS',
  arbitrum: 'Arbitrum One',
  base: 'Base',
  solana: 'Solana',
}

/** A part of the address pool, by family: an EVM address serves every EVM chain (the same in every language). */
export const familyNames: Record<ChainFamilyId, string> = {
  tron: 'TRON',
  evm: 'EVM',
  solana: 'Solana',
}

/** The token standard wallets show next to the token on each network. */
export const tokenStandards: Record<ChainId, string> = {
  tron: 'TRC-20',
  ethereum: 'ERC-20',
  bsc: 'BEP-20',
  polygon: 'ERC-20',
  arbitrum: 'ERC-20',
  base: 'ERC-20',
  solana: 'SPL',
}

/**
 * A network by its name with the token standard of a token on it ("TRON (TRC-20)", "BNB Smart Chain
 * (BEP-20)"); a native coin (TRX) has none, and a name that is not a known network stays as it is.
 */
export function networkWithStandard(network: string, token: TokenSymbol): string {
  const chain = chainOfNetwork(network)
  return chain && token !== 'TRX' ? `${network} (${tokenStandards[chain]})` : network
}

/** The chain a network's name ("BNB Smart Chain") stands for; undefined for a name that is none. */
export function chainOfNetwork(network: string): ChainId | undefined {
  return (Object.keys(chainNames) as ChainId[]).find((c) => chainNames[c] === network)
}

export const paymentNetworkSchema = z.object({
  chain: chainIdSchema,
  family: z.enum(chainFamilies),
  tokens: z.array(z.object({ symbol: tokenSymbolSchema, decimals: z.number().int() })),
  /** Blocks on top of a transfer before it pays (the block itself counts); null: the chain says when. */
  confirmations: z.number().int().nullable(),
})
export type PaymentNetwork = z.infer<typeof paymentNetworkSchema>

export const paymentNetworksAnswerSchema = z.object({
  success: z.literal(true),
  networks: z.array(paymentNetworkSchema),
})
export type PaymentNetworksAnswer = z.infer<typeof paymentNetworksAnswerSchema>

/** One thing a buyer may pick at checkout. */
export interface NetworkOption {
  chain: ChainId
  token: TokenSymbol
}

/** The checkout's choices, in the server's order: each network's stablecoins (TRX stays an alternative on TRON's page). */
export function networkOptions(networks: readonly PaymentNetwork[]): NetworkOption[] {
  return networks.flatMap((n) =>
    n.tokens.filter((t) => stablecoins.has(t.symbol)).map((t) => ({ chain: n.chain, token: t.symbol })),
  )
}

/**
 * What a shop accepts in words that need no translation, for a page's meta description: TRON's
 * "USDT-TRC20/TRX" alone, else the stablecoins and the networks ("USDT/USDC · TRON, BNB Smart Chain").
 */
export function acceptedSummary(networks: readonly PaymentNetwork[]): string {
  if (networks.length < 2) return 'USDT-TRC20/TRX'
  const tokens = [...new Set(networkOptions(networks).map((o) => o.token))].join('/')
  return `${tokens} · ${networks.map((n) => chainNames[n.chain]).join(', ')}`
}

/** "USDT · BNB Smart Chain". */
export function optionLabel(option: NetworkOption): string {
  return `${option.token} · ${chainNames[option.chain]}`
}

/** Base units of a token as an exact decimal string with every one of its decimals, e.g. ("25000000", 6) → "25.000000". */
export function unitsToDecimal(units: string, decimals: number): string {
  const digits = units.replace(/^0+(?=\d)/, '').padStart(decimals + 1, '0')
  if (decimals === 0) return digits
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`
}
