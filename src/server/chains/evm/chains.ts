import { evmChecksum } from '../../../shared/evm-address'
import { chainNames } from '../../../shared/networks'

// The EVM chains the shop can follow, and the stablecoins it accepts on each: one table, in code.
// An operator enables a chain and names its providers (evm-env.ts); the contracts are not theirs to
// change (tests replace a chain's table with contracts they deploy on a local node).
//
// Where each contract comes from:
// - USDT on Ethereum: Tether's list of supported protocols (tether.to).
// - USDT on Arbitrum One and Polygon PoS: the USDT0 deployments list (docs.usdt0.to), Tether's
//   omnichain USDT; the contracts are the ones USDT had there before it became USDT0.
// - USDC on Ethereum, Arbitrum One, Base and Polygon PoS: Circle's "USDC contract addresses"
//   (developers.circle.com), the natively issued USDC (not the bridged USDC.e).
// - USDT and USDC on BNB Smart Chain: neither Tether nor Circle issues there; the tokens people
//   hold are Binance's pegged ones ("Binance-Peg BSC-USD", "Binance-Peg USD Coin"), with 18
//   decimals, as BscScan lists them. They are taken because that is what BNB Smart Chain's users
//   pay with; a shop that does not want them leaves the chain off.
// - Base has no USDT from Tether: only USDC is accepted there.
// Every contract's decimals were read from the token (decimals()) as the explorers show it.

export type EvmChainKey = 'ethereum' | 'bsc' | 'polygon' | 'arbitrum' | 'base'

export interface EvmToken {
  symbol: 'USDT' | 'USDC'
  /** Checksummed contract address. */
  contract: `0x${string}`
  decimals: number
}

export interface EvmChainSpec {
  key: EvmChainKey
  name: string
  chainId: number
  /** Typical time between blocks, ms (for pacing and the "confirming N of M" estimate). */
  blockTimeMs: number
  /** Blocks on top of a transfer's block before it counts as final (see docs/configuration.md: why each). */
  defaultConfirmations: number
  /**
   * How often the follower looks once caught up: every block where blocks are seconds apart, every
   * few blocks where they come faster than a payment needs (the provider's day budget).
   */
  defaultPollMs: number
  /** The transaction's page on the chain's main explorer. */
  explorerTxUrl: (hash: string) => string
  explorerAddressUrl: (address: string) => string
  tokens: readonly EvmToken[]
}

const token = (symbol: EvmToken['symbol'], contract: string, decimals: number): EvmToken => ({
  symbol,
  contract: evmChecksum(contract),
  decimals,
})

const explorer = (base: string) => ({
  explorerTxUrl: (hash: string) => `${base}/tx/${hash}`,
  explorerAddressUrl: (address: string) => `${base}/address/${address}`,
})

export const EVM_CHAINS: readonly EvmChainSpec[] = [
  {
    key: 'ethereum',
    name: chainNames.ethereum,
    chainId: 1,
    blockTimeMs: 12_000,
    defaultConfirmations: 12,
    defaultPollMs: 12_000,
    ...explorer('https://etherscan.io'),
    tokens: [
      token('USDT', '0xdAC17F958D2ee523a2206206994597C13D831ec7', 6),
      token('USDC', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 6),
    ],
  },
  {
    key: 'bsc',
    name: chainNames.bsc,
    chainId: 56,
    blockTimeMs: 750,
    defaultConfirmations: 15,
    defaultPollMs: 3_000,
    ...explorer('https://bscscan.com'),
    tokens: [
      token('USDT', '0x55d398326f99059fF775485246999027B3197955', 18),
      token('USDC', '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', 18),
    ],
  },
  {
    key: 'polygon',
    name: chainNames.polygon,
    chainId: 137,
    blockTimeMs: 2_000,
    defaultConfirmations: 64,
    defaultPollMs: 4_000,
    ...explorer('https://polygonscan.com'),
    tokens: [
      token('USDT', '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', 6),
      token('USDC', '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', 6),
    ],
  },
  {
    key: 'arbitrum',
    name: chainNames.arbitrum,
    chainId: 42161,
    blockTimeMs: 250,
    defaultConfirmations: 40,
    defaultPollMs: 3_000,
    ...explorer('https://arbiscan.io'),
    tokens: [
      token('USDT', '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', 6),
      token('USDC', '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', 6),
    ],
  },
  {
    key: 'base',
    name: chainNames.base,
    chainId: 8453,
    blockTimeMs: 2_000,
    defaultConfirmations: 10,
    defaultPollMs: 4_000,
    ...explorer('https://basescan.org'),
    tokens: [token('USDC', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 6)],
  },
]

export const EVM_CHAIN_KEYS = EVM_CHAINS.map((c) => c.key) as readonly EvmChainKey[]

export function evmChain(key: EvmChainKey): EvmChainSpec {
  const spec = EVM_CHAINS.find((c) => c.key === key)
  if (!spec) throw new Error(`unknown EVM chain ${key}`)
  return spec
}
