import { type ChainId, familyOfChain, firstChain, stablecoins, type TokenSymbol } from '../../shared/chains'
import { chainNames } from '../../shared/networks'
import type { ChainAdapter } from '../chains/chain'
import type { ChainRegistry } from '../chains/chain-registry'
import { familyOf } from '../chains/families'

// The network and token a buyer chooses at checkout, checked against the chains this shop has
// enabled, and what the payment page shows for it: the amount in the token's own decimals, the
// QR code's text, and every network on which a payment to the order's address is credited (an EVM
// address is watched on every enabled EVM chain).

export type NetworkChoice = { ok: true; chain: ChainId; token: TokenSymbol } | { ok: false; error: string }

export interface OrderNetwork {
  chain: ChainId
  token: TokenSymbol
  token_decimals: number
  amount_units: string
  payment_uri: string
  watched: { chain: ChainId; tokens: TokenSymbol[] }[]
  /** Blocks on top of a transfer before it pays (the block itself counts); null: the chain says when (TRON). */
  confirm_blocks: number | null
  /** What those blocks take at the chain's block time, or the chain's own finality, in whole seconds (the page's expected wait); null on TRON. */
  confirm_seconds: number | null
}

/** The buyer's choice, or why it is refused (a network the shop does not take, a token not on it). */
export function chooseNetwork(chains: ChainRegistry, chain?: ChainId, token?: TokenSymbol): NetworkChoice {
  const id = chain ?? firstChain
  const adapter = chains.get(id)
  if (!adapter) return { ok: false, error: `Payments on ${chainNames[id]} are not accepted by this shop` }
  const stable = adapter.tokens.filter((t) => stablecoins.has(t.symbol))
  const picked = token ?? stable[0]?.symbol
  if (!picked || !adapter.tokens.some((t) => t.symbol === picked)) {
    return { ok: false, error: `${token ?? 'That token'} is not accepted on ${chainNames[id]}` }
  }
  return { ok: true, chain: id, token: picked }
}

/** Base units of `cents` dollars of a stablecoin with `decimals` decimals (exact). */
export function centsToUnits(cents: number, decimals: number): bigint {
  const c = BigInt(cents)
  return decimals >= 2 ? c * 10n ** BigInt(decimals - 2) : c / 10n ** BigInt(2 - decimals)
}

/** What the payment page shows for an order; null when its chain is no longer enabled or its token not a stablecoin. */
export function orderNetwork(
  chains: ChainRegistry,
  order: { chain: ChainId; token: TokenSymbol; totalCents: number; walletAddress: string },
): OrderNetwork | null {
  const adapter = chains.get(order.chain)
  const token = adapter?.tokens.find((t) => t.symbol === order.token)
  if (!adapter || !token || !stablecoins.has(token.symbol)) return null
  const units = centsToUnits(order.totalCents, token.decimals)
  const family = familyOfChain[order.chain]
  const depth = adapter.confirmation.kind === 'depth' ? adapter.confirmation.blocks : null
  return {
    chain: order.chain,
    token: token.symbol,
    token_decimals: token.decimals,
    amount_units: units.toString(),
    payment_uri: adapter.paymentUri({ address: order.walletAddress, token, amountUnits: units }),
    watched: chains.ofFamily(family).map((c: ChainAdapter) => ({
      chain: c.chain,
      tokens: c.tokens
        .filter(
          (t) => stablecoins.has(t.symbol) || t.symbol === familyOf(c.chain).nativeCoin(c.chain)?.symbol,
        )
        .map((t) => t.symbol),
    })),
    confirm_blocks: depth,
    confirm_seconds: confirmSeconds(adapter, depth),
  }
}

/**
 * The order's payment link asking for `units` of its token instead of the total: what a buyer paid in
 * part scans to send the rest (the units are the shortfall's, shared/token-amount.ts). Null when the
 * order's chain or token is no longer enabled, or when the chain's link is the address alone (TRON's).
 */
export function remainingPaymentUri(
  chains: ChainRegistry,
  order: { chain: ChainId; token: TokenSymbol; walletAddress: string },
  units: bigint,
): string | null {
  const adapter = chains.get(order.chain)
  const token = adapter?.tokens.find((t) => t.symbol === order.token)
  if (!adapter || !token || !stablecoins.has(token.symbol)) return null
  const uri = adapter.paymentUri({ address: order.walletAddress, token, amountUnits: units })
  // A chain whose payment link is the address alone (TRON) has no link that asks for an amount.
  return uri === order.walletAddress ? null : uri
}

function confirmSeconds(adapter: ChainAdapter, depth: number | null): number | null {
  if (depth !== null) return Math.ceil((depth * adapter.blockIntervalMs) / 1000)
  const rule = adapter.confirmation
  return rule.kind === 'solidified' && rule.expectedMs !== undefined
    ? Math.ceil(rule.expectedMs / 1000)
    : null
}
