import {
  type ChainFamilyId,
  type ChainId,
  chainFamilies,
  chainIds,
  stablecoins,
  type TokenSymbol,
  tokenSymbols,
} from './chains'
import type { PaymentNetwork } from './network-schemas'

export type { PaymentNetwork, PaymentNetworksAnswer } from './network-schemas'

// The networks a buyer may pay on (secure_get_payment_networks): each enabled chain with the tokens
// it accepts. The checkout offers one choice per chain and stablecoin ("USDT · BNB Smart Chain"); a
// shop with TRON alone offers one, and the checkout then shows no choice at all. The storefront's
// first load names the networks, so this file has no schema library (the answer's schema is in
// network-schemas.ts).

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

/**
 * How a family's transactions are named where a buyer types one (the payment page's "Already
 * paid?"): a hash of 64 hex digits (0x allowed), or a Solana signature of up to 88 base58 characters.
 */
export const txIdForms: Record<ChainFamilyId, { word: 'hash' | 'signature'; maxLength: number }> = {
  tron: { word: 'hash', maxLength: 66 },
  evm: { word: 'hash', maxLength: 66 },
  solana: { word: 'signature', maxLength: 88 },
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

const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T =>
  (list as readonly unknown[]).includes(value)
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null

/**
 * The networks of a secure_get_payment_networks answer, or null when it is not one: the check
 * paymentNetworksAnswerSchema makes (network-schemas.ts), by hand, for the storefront's first load.
 */
export function paymentNetworksOf(answer: unknown): PaymentNetwork[] | null {
  if (!isRecord(answer) || answer.success !== true || !Array.isArray(answer.networks)) return null
  const networks: PaymentNetwork[] = []
  for (const n of answer.networks as unknown[]) {
    if (!isRecord(n) || !isOneOf(chainIds, n.chain) || !isOneOf(chainFamilies, n.family)) return null
    if (!(n.confirmations === null || Number.isInteger(n.confirmations))) return null
    if (!Array.isArray(n.tokens)) return null
    const tokens: PaymentNetwork['tokens'] = []
    for (const t of n.tokens as unknown[]) {
      if (!isRecord(t) || !isOneOf(tokenSymbols, t.symbol) || !Number.isInteger(t.decimals)) return null
      tokens.push({ symbol: t.symbol, decimals: t.decimals as number })
    }
    networks.push({
      chain: n.chain,
      family: n.family,
      tokens,
      confirmations: n.confirmations as number | null,
    })
  }
  return networks
}

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
