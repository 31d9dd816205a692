import { randomBytes } from 'node:crypto'
import { type Address, getAddress } from 'viem'
import { type Anvil, spawnAnvil } from '../../tests/support/evm/anvil'
import {
  accounts,
  deployStablecoin,
  mint,
  type TokenSpec,
  USDC_6,
  USDC_18,
  USDT_18,
} from '../../tests/support/evm/tokens'

// Two EVM chains on real Anvil nodes making a block every `blockTime` seconds, for a benchmark's
// shop: BNB Smart Chain (chain id 56, 18-decimal USDT and USDC) and Base (8453, 6-decimal USDC),
// with the settings that enable them and a few EVM addresses for the pool.

export interface BenchEvmChains {
  env: Record<string, string>
  addresses: Address[]
  stop(): Promise<void>
}

async function chain(key: 'bsc' | 'base', chainId: number, specs: TokenSpec[], blockTime: number) {
  const anvil = await spawnAnvil({ chainId, blockTime })
  const [deployer, buyer] = await accounts(anvil)
  const tokens: { symbol: string; contract: Address; decimals: number }[] = []
  for (const spec of specs) {
    const contract = await deployStablecoin(anvil, spec)
    await mint(anvil, contract, deployer, buyer, 10n ** 30n)
    tokens.push({ symbol: spec.symbol, contract, decimals: spec.decimals })
  }
  const p = `EVM_${key.toUpperCase()}_`
  const env = {
    [`${p}ENABLED`]: 'true',
    [`${p}PROVIDER_1_URL`]: anvil.url,
    [`${p}TOKENS`]: JSON.stringify(tokens),
  }
  return { anvil, env }
}

export async function startBenchEvmChains(blockTime = 2): Promise<BenchEvmChains> {
  const nodes: Anvil[] = []
  try {
    const bsc = await chain('bsc', 56, [USDT_18, USDC_18], blockTime)
    nodes.push(bsc.anvil)
    const base = await chain('base', 8453, [USDC_6], blockTime)
    nodes.push(base.anvil)
    return {
      env: { ...bsc.env, ...base.env },
      addresses: Array.from({ length: 50 }, () => getAddress(`0x${randomBytes(20).toString('hex')}`)),
      stop: async () => {
        await Promise.all(nodes.map((n) => n.stop()))
      },
    }
  } catch (error) {
    await Promise.all(nodes.map((n) => n.stop()))
    throw error
  }
}
