import { runChainConformance } from '../../../../tests/conformance/chain-conformance'
import type { Json } from '../../../../tests/conformance/provider-proxy'
import { testAddresses } from '../../../../tests/support/test-addresses'
import { engines } from '../../../../tests/support/test-db'
import { createDevchain } from '../../../../tools/devchain/devchain'
import { DEFAULT_SENDER } from '../../../../tools/devchain/sim-chain'
import { createTronChain } from './tron-chain'
import { createProviderPool } from './tron-pool'

// The TRON family passes the chain conformance suite on the devchain: a TronGrid-compatible chain
// over real HTTP (java-tron's node and solidity endpoints, the v1 account lists), mined only when
// the harness says, final once solidified (19 blocks behind the head), on a clock the harness can
// move forward.

const COUNTERFEIT_USDT = 'TRhVWK5XEDkQBDevcdCWW7RW51aRncty4W'

/** Base units of a 6-decimal token as the devchain's amount (a decimal string). */
const amount = (units: bigint) => `${units / 1_000_000n}.${(units % 1_000_000n).toString().padStart(6, '0')}`

runChainConformance(
  'TRON on the devchain',
  async () => {
    let offsetMs = 0
    const chain = await createDevchain({ port: 0, autoMine: false, now: () => Date.now() + offsetMs })
    let n = 0
    const salt = `conformance-${Math.random()}`
    const send = (request: Parameters<typeof chain.transfer>[0]) => chain.transfer(request).transaction_id
    return {
      chain: 'tron',
      family: 'tron',
      env: (urls) => ({
        USDT_CONTRACT: chain.usdtContract,
        ...Object.fromEntries(urls.map((url, i) => [`TRON_PROVIDER_${i + 1}_URL`, url])),
      }),
      token: { symbol: 'USDT', decimals: 6 },
      buyer: DEFAULT_SENDER,
      nodeUrl: chain.url,
      adapter: (urls) =>
        createTronChain({
          pool: createProviderPool({
            providers: urls.map((url, i) => ({ name: `p${i + 1}`, url, keys: [], rps: 1000, perDay: null })),
            usdtContract: chain.usdtContract,
            timeoutMs: 5000,
            coolingBaseMs: 1,
            maxCoolingMs: 1,
          }),
          blockIntervalMs: 3000,
        }),
      newAddress: async () => testAddresses(1, `${salt} ${n++}`)[0] as string,
      pay: async (to, units) => send({ to, amount: amount(units) }),
      counterfeit: async (to, units) => send({ to, amount: amount(units), contract: COUNTERFEIT_USDT }),
      fail: async (to, units) => send({ to, amount: amount(units), failed: 'REVERT' }),
      toHead: async () => chain.mine(1),
      finalize: async () => chain.solidify(),
      finalHeight: async () => chain.heights().solid,
      // The chain's clock moves `ms` past its newest block (mined blocks run ahead of the wall clock).
      warp: async (ms) => {
        const head = (await (
          await fetch(`${chain.url}/wallet/getnowblock`, { method: 'POST' })
        ).json()) as Json
        const last = Number(head.block_header.raw_data.timestamp)
        offsetMs = Math.max(offsetMs, last - Date.now()) + ms
      },
      drop: async (txId) => chain.drop(txId),
      lie: {
        what: 'final blocks whose parent is not the block before',
        tamper: (path, _request, answer: Json) =>
          path.includes('/walletsolidity/getblockbylimitnext') && Array.isArray(answer?.block)
            ? {
                ...answer,
                block: answer.block.map((b: Json) => ({
                  ...b,
                  block_header: {
                    ...b.block_header,
                    raw_data: { ...b.block_header.raw_data, parentHash: '66'.repeat(32) },
                  },
                })),
              }
            : null,
      },
      close: () => chain.close(),
    }
  },
  { engines },
)
