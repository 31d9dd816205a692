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
import { MAX_PERIOD_REQUESTS } from './evm-period'

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

  it('answers null rather than a partial list when the search is wider than one check may send, blaming no provider', async () => {
    const adapter = adapterFor(anvil, tokens, 1)
    // More blocks since the time than one check may ask for one block at a time (the watch's read is
    // reconciliation's: the same bound, an answer rather than a fault).
    const since = Date.now() - 10_000
    await anvil.client.mine({ blocks: MAX_PERIOD_REQUESTS + 20 })
    expect(await adapter.transfersTo(buyer, 'USDT', since)).toBeNull()
    // Asked from the beginning of the chain: refused by the estimate, before any request.
    expect(await adapter.transfersTo(buyer, 'USDT', 0)).toBeNull()
    expect(adapter.providers.health().map((h) => [h.state, h.lastError])).toEqual([['healthy', null]])
  }, 120_000)

  it("reads the chain's own clock: the newest block's time", async () => {
    const adapter = adapterFor(anvil, tokens, 5)
    await anvil.client.increaseTime({ seconds: 3_600 })
    await anvil.client.mine({ blocks: 1 })
    // A block of second S stands for its whole second: S.999 (as every EVM block time here).
    const newest = Number((await anvil.client.getBlock()).timestamp) * 1000 + 999
    expect(newest).toBeGreaterThan(Date.now() + 3_000_000)
    expect(await adapter.headTime()).toBe(newest)
  }, 120_000)
})
