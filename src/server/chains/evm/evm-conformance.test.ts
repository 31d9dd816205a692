import { randomBytes } from 'node:crypto'
import { type Address, getAddress, type Hash } from 'viem'
import { runChainConformance } from '../../../../tests/conformance/chain-conformance'
import { rpcTamper } from '../../../../tests/conformance/provider-proxy'
import { type Anvil, spawnAnvil } from '../../../../tests/support/evm/anvil'
import {
  accounts,
  deployStablecoin,
  mint,
  revertedTransfer,
  transfer,
  USDT_18,
} from '../../../../tests/support/evm/tokens'
import { engines } from '../../../../tests/support/test-db'
import { createEvmAdapter } from './evm-adapter'
import { parseEvmEnv } from './evm-env'

// The EVM family passes the chain conformance suite on a real node: Anvil as BNB Smart Chain
// (chain id 56, an 18-decimal USDT and a counterfeit with the same symbol), a block per
// transaction, final at a depth of 3.

const DEPTH = 3

runChainConformance(
  'EVM on Anvil',
  async () => {
    const anvil: Anvil = await spawnAnvil({ chainId: 56 })
    const [deployer, buyer, broke] = await accounts(anvil)
    const usdt = await deployStablecoin(anvil, USDT_18)
    const fake = await deployStablecoin(anvil, USDT_18)
    for (const token of [usdt, fake]) await mint(anvil, token, deployer, buyer, 10n ** 30n)
    const head = async () => Number(await anvil.client.getBlockNumber())
    const txBlock = async (hash: string) =>
      Number((await anvil.client.getTransactionReceipt({ hash: hash as Hash })).blockNumber)
    const env = (urls: string[]) => ({
      EVM_BSC_ENABLED: 'true',
      EVM_BSC_CONFIRMATIONS: String(DEPTH),
      EVM_BSC_TOKENS: JSON.stringify([{ symbol: 'USDT', contract: usdt, decimals: 18 }]),
      ...Object.fromEntries(urls.map((url, i) => [`EVM_BSC_PROVIDER_${i + 1}_URL`, url])),
    })
    return {
      chain: 'bsc',
      family: 'evm',
      env,
      token: { symbol: 'USDT', decimals: 18 },
      buyer,
      nodeUrl: anvil.url,
      adapter(urls) {
        const { chains, errors } = parseEvmEnv(env(urls))
        const config = chains.find((c) => c.spec.key === 'bsc')
        if (errors.length > 0 || !config) throw new Error(errors.join('\n'))
        return createEvmAdapter(config, { coolingBaseMs: 1, maxCoolingMs: 1, timeoutMs: 5000 })
      },
      newAddress: async () => getAddress(`0x${randomBytes(20).toString('hex')}`),
      pay: (to, units) => transfer(anvil, usdt, buyer, to as Address, units),
      counterfeit: (to, units) => transfer(anvil, fake, buyer, to as Address, units),
      // `broke` holds none of the token: the transfer reverts, in a block of its own.
      fail: (to, units) => revertedTransfer(anvil, usdt, broke, to as Address, units),
      // Anvil mines a block for each transaction.
      toHead: async () => {},
      finalize: () => anvil.client.mine({ blocks: DEPTH }),
      finalHeight: async () => (await head()) - DEPTH + 1,
      warp: (ms) => anvil.client.increaseTime({ seconds: Math.ceil(ms / 1000) }),
      async drop(txId) {
        // The blocks from the transaction's on are replaced by empty ones: it is gone.
        const depth = (await head()) - (await txBlock(txId)) + 1
        await anvil.client.request({ method: 'anvil_reorg', params: [depth, []] } as never)
      },
      lie: {
        what: 'blocks whose parent is not the block before',
        tamper: rpcTamper((call, answer) =>
          call.method === 'eth_getBlockByNumber' && answer?.result
            ? { ...answer, result: { ...answer.result, parentHash: `0x${'66'.repeat(32)}` } }
            : null,
        ),
      },
      close: () => anvil.stop(),
    }
  },
  { engines },
)
