import { expect } from 'vitest'
import type { ChainAdapter } from '../../../src/server/chains/chain'
import { createEvmAdapter } from '../../../src/server/chains/evm/evm-adapter'
import { parseEvmEnv } from '../../../src/server/chains/evm/evm-env'
import type { Anvil } from './anvil'

// A BNB Smart Chain adapter on one Anvil node, from the settings an operator writes: the node as its
// only provider, this widest eth_getLogs range, this depth and these token contracts. A fault cools
// the provider for a millisecond, so a test never waits on it.
export function bscAdapterOn(anvil: Anvil, tokens: object[], maxBlocks: number, depth: number): ChainAdapter {
  const { chains, errors } = parseEvmEnv({
    EVM_BSC_ENABLED: 'true',
    EVM_BSC_PROVIDER_1_URL: anvil.url,
    EVM_BSC_PROVIDER_1_MAX_BLOCKS: String(maxBlocks),
    EVM_BSC_CONFIRMATIONS: String(depth),
    EVM_BSC_TOKENS: JSON.stringify(tokens),
  })
  expect(errors).toEqual([])
  const config = chains.find((c) => c.spec.key === 'bsc')
  if (!config) throw new Error('BNB Smart Chain is not in the parsed settings')
  return createEvmAdapter(config, { coolingBaseMs: 1, maxCoolingMs: 1 })
}
