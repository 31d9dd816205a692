import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Anvil, spawnAnvil } from '../../../../tests/support/evm/anvil'
import { bscAdapterOn } from '../../../../tests/support/evm/bsc-adapter'
import {
  accounts,
  deployStablecoin,
  mint,
  transfer,
  USDC_18,
  USDT_18,
} from '../../../../tests/support/evm/tokens'
import { MAX_RANGES } from './evm-received'

// What one address received since a time on an EVM chain (refunds' watch), against a real node:
// final transfers of the one token to that address only, from the first block at or after the
// time, over ranges as narrow as the provider allows.

const DEPTH = 3

const adapterFor = (anvil: Anvil, tokens: object[], maxBlocks: number) =>
  bscAdapterOn(anvil, tokens, maxBlocks, DEPTH)

describe('EVM transfers to an address since a time (Anvil)', () => {
  let anvil: Anvil
  let deployer: Address
  let payer: Address
  let buyer: Address
  let other: Address
  let tokens: object[]

  beforeAll(async () => {
    anvil = await spawnAnvil({ chainId: 56 })
    ;[deployer, payer, buyer, other] = await accounts(anvil)
    const usdt = await deployStablecoin(anvil, USDT_18)
    const usdc = await deployStablecoin(anvil, USDC_18)
    for (const token of [usdt, usdc]) await mint(anvil, token, deployer, payer, 10n ** 24n)
    tokens = [
      { symbol: 'USDT', contract: usdt, decimals: 18 },
      { symbol: 'USDC', contract: usdc, decimals: 18 },
    ]
  }, 120_000)
  afterAll(async () => {
    await anvil?.stop()
  })

  it('answers the final transfers of the token to the address made since the time, oldest first', async () => {
    const adapter = adapterFor(anvil, tokens, 2)
    const usdt = (tokens[0] as { contract: Address }).contract
    const usdc = (tokens[1] as { contract: Address }).contract
    // Before the time: not counted.
    await transfer(anvil, usdt, payer, buyer, 5n * 10n ** 18n)
    await anvil.client.increaseTime({ seconds: 60 })
    await anvil.client.mine({ blocks: 1 })
    const since = Number((await anvil.client.getBlock()).timestamp) * 1000 + 30_000
    await anvil.client.increaseTime({ seconds: 60 })
    const first = await transfer(anvil, usdt, payer, buyer, 7n * 10n ** 18n)
    await transfer(anvil, usdc, payer, buyer, 3n * 10n ** 18n)
    await transfer(anvil, usdt, payer, other, 10n ** 18n)
    await anvil.client.mine({ blocks: 4 })
    const second = await transfer(anvil, usdt, payer, buyer, 2n * 10n ** 18n)
    // The last one is not final yet.
    const early = await adapter.transfersTo(buyer, 'USDT', since)
    expect(early?.map((t) => t.txId)).toEqual([first])
    await anvil.client.mine({ blocks: DEPTH })
    const found = await adapter.transfersTo(buyer, 'USDT', since)
    expect(found?.map((t) => ({ txId: t.txId, from: t.from, value: t.value }))).toEqual([
      { txId: first, from: payer, value: 7n * 10n ** 18n },
      { txId: second, from: payer, value: 2n * 10n ** 18n },
    ])
    for (const t of found ?? []) expect(t.blockTimestamp).toBeGreaterThanOrEqual(since)
    expect((await adapter.transfersTo(buyer, 'USDC', since))?.map((t) => t.value)).toEqual([3n * 10n ** 18n])
    // A time after the final head: nothing yet. A token the chain does not take: nothing.
    expect(await adapter.transfersTo(buyer, 'USDT', Date.now() + 3_600_000)).toEqual([])
    expect(await adapter.transfersTo(buyer, 'TRX', since)).toEqual([])
  }, 120_000)

  it('answers null rather than a partial list when the search is wider than its bound', async () => {
    const adapter = adapterFor(anvil, tokens, 1)
    const head = Number(await anvil.client.getBlockNumber())
    if (head - DEPTH + 1 < MAX_RANGES) await anvil.client.mine({ blocks: MAX_RANGES + DEPTH - head })
    expect(await adapter.transfersTo(buyer, 'USDT', 0)).toBeNull()
  }, 120_000)
})
