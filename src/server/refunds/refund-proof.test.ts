import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Anvil, spawnAnvil } from '../../../tests/support/evm/anvil'
import {
  accounts,
  deployStablecoin,
  mint,
  revertedTransfer,
  transfer,
  USDT_18,
} from '../../../tests/support/evm/tokens'
import { createChainRegistry } from '../chains/chain-registry'
import { createEvmAdapter } from '../chains/evm/evm-adapter'
import { parseEvmEnv } from '../chains/evm/evm-env'
import { chainOf, readTransaction, transfersTo } from './refund-proof'

// The refunds' chain reads on an EVM chain (Anvil as BNB Smart Chain): a refund's transaction is read
// through the adapter of its chain, with what it moved, whether it ran and whether it is final.

const DEPTH = 3

describe('refund proof on an EVM chain (Anvil)', () => {
  let anvil: Anvil
  let operator: Address
  let buyer: Address
  let other: Address
  let usdt: Address
  const chains = () => {
    const { chains: configs, errors } = parseEvmEnv({
      EVM_BSC_ENABLED: 'true',
      EVM_BSC_PROVIDER_1_URL: anvil.url,
      EVM_BSC_CONFIRMATIONS: String(DEPTH),
      EVM_BSC_TOKENS: JSON.stringify([{ symbol: 'USDT', contract: usdt, decimals: 18 }]),
    })
    expect(errors).toEqual([])
    return createChainRegistry(
      configs
        .filter((c) => c.spec.key === 'bsc')
        .map((c) => createEvmAdapter(c, { coolingBaseMs: 1, maxCoolingMs: 1 })),
    )
  }

  beforeAll(async () => {
    anvil = await spawnAnvil({ chainId: 56 })
    let deployer: Address
    ;[deployer, operator, buyer, other] = await accounts(anvil)
    usdt = await deployStablecoin(anvil, USDT_18)
    await mint(anvil, usdt, deployer, operator, 10n ** 24n)
  }, 120_000)
  afterAll(async () => {
    await anvil?.stop()
  })

  it('reads what a transaction moved once final, a revert as failed, an unknown hash as not found', async () => {
    const registry = chains()
    expect(chainOf(registry, 'tron')).toBeNull()
    const adapter = chainOf(registry, 'bsc')
    if (!adapter) throw new Error('no bsc')
    const since = Date.now() - 60_000
    const paid = await transfer(anvil, usdt, operator, buyer, 25n * 10n ** 18n)
    expect(await readTransaction(adapter, paid)).toEqual({ kind: 'not_final' })
    const failed = await revertedTransfer(anvil, usdt, other, buyer, 10n ** 18n)
    await anvil.client.mine({ blocks: DEPTH })
    const proof = await readTransaction(adapter, paid)
    expect(proof).toMatchObject({
      kind: 'final',
      success: true,
      result: null,
      transfers: [{ token: 'USDT', from: operator, to: buyer, value: 25n * 10n ** 18n }],
    })
    expect(await readTransaction(adapter, failed)).toMatchObject({
      kind: 'final',
      success: false,
      result: 'REVERT',
      transfers: [],
    })
    expect(await readTransaction(adapter, `0x${'ab'.repeat(32)}`)).toEqual({ kind: 'not_found' })
    const received = await transfersTo(adapter, buyer, 'USDT', since)
    expect(received?.map((t) => [t.txId, t.from, t.value])).toEqual([[paid, operator, 25n * 10n ** 18n]])
  }, 120_000)
})
