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

// Reconciliation's chain side on an EVM chain (receivedInPeriod), against a real node: the final
// transfers of the accepted tokens to the addresses asked, with block time in [from, to), over as
// many ranges as the provider's widest allows; a counterfeit token never counts; a period that
// takes too many requests is answered "narrow the period" rather than read.

const DEPTH = 3

const adapterFor = (anvil: Anvil, tokens: object[], maxBlocks: number) =>
  bscAdapterOn(anvil, tokens, maxBlocks, DEPTH)

describe('EVM transfers to addresses in a period (Anvil)', () => {
  let anvil: Anvil
  let payer: Address
  let a: Address
  let b: Address
  let other: Address
  let usdt: Address
  let usdc: Address
  let fake: Address
  let tokens: object[]
  const blockTime = async () => Number((await anvil.client.getBlock()).timestamp) * 1000

  beforeAll(async () => {
    anvil = await spawnAnvil({ chainId: 56 })
    let deployer: Address
    ;[deployer, payer, a, b] = await accounts(anvil)
    other = '0x000000000000000000000000000000000000dEaD'
    usdt = await deployStablecoin(anvil, USDT_18)
    usdc = await deployStablecoin(anvil, USDC_18)
    fake = await deployStablecoin(anvil, USDT_18)
    for (const token of [usdt, usdc, fake]) await mint(anvil, token, deployer, payer, 10n ** 24n)
    tokens = [
      { symbol: 'USDT', contract: usdt, decimals: 18 },
      { symbol: 'USDC', contract: usdc, decimals: 18 },
    ]
  }, 120_000)
  afterAll(async () => {
    await anvil?.stop()
  })

  it('lists the accepted tokens to the addresses inside the period only, final only, never a counterfeit', async () => {
    const adapter = adapterFor(anvil, tokens, 2)
    await transfer(anvil, usdt, payer, a, 1n * 10n ** 18n) // before the period
    await anvil.client.increaseTime({ seconds: 60 })
    await anvil.client.mine({ blocks: 1 })
    const fromMs = (await blockTime()) + 30_000
    await anvil.client.increaseTime({ seconds: 60 })
    const first = await transfer(anvil, usdt, payer, a, 7n * 10n ** 18n + 1n)
    const second = await transfer(anvil, usdc, payer, b, 3n * 10n ** 18n)
    await transfer(anvil, fake, payer, a, 500n * 10n ** 18n)
    await transfer(anvil, usdt, payer, other, 10n ** 18n)
    await anvil.client.mine({ blocks: 5 })
    await anvil.client.increaseTime({ seconds: 60 })
    await anvil.client.mine({ blocks: 1 })
    const toMs = (await blockTime()) - 30_000
    await transfer(anvil, usdt, payer, a, 2n * 10n ** 18n) // after the period
    await anvil.client.mine({ blocks: DEPTH })

    const read = await adapter.receivedInPeriod([a, b], { fromMs, toMs })
    expect(read.unread).toEqual([])
    expect(read.unlisted).toEqual([])
    expect(read.transfers.map((t) => ({ token: t.token, to: t.to, txId: t.txId, value: t.value }))).toEqual([
      { token: 'USDT', to: a, txId: first, value: 7n * 10n ** 18n + 1n },
      { token: 'USDC', to: b, txId: second, value: 3n * 10n ** 18n },
    ])
    for (const t of read.transfers) {
      expect(t.from).toBe(payer)
      expect(t.blockTimestamp).toBeGreaterThanOrEqual(fromMs)
      expect(t.blockTimestamp).toBeLessThan(toMs)
    }

    // A transfer in a block that is not final yet is not listed.
    const now = (await blockTime()) + 1000
    await anvil.client.increaseTime({ seconds: 5 })
    await transfer(anvil, usdt, payer, a, 4n * 10n ** 18n)
    const pending = await adapter.receivedInPeriod([a], { fromMs: now, toMs: now + 3_600_000 })
    expect(pending).toEqual({ transfers: [], unread: [], unlisted: [] })
    await anvil.client.mine({ blocks: DEPTH })
    const final = await adapter.receivedInPeriod([a], { fromMs: now, toMs: now + 3_600_000 })
    expect(final.transfers.map((t) => t.value)).toEqual([4n * 10n ** 18n])
  }, 120_000)

  it('answers "narrow the period" before any request when the estimate is too wide', async () => {
    const adapter = adapterFor(anvil, tokens, 500)
    const before = adapter.providers.requestBudget().usedToday
    const now = await blockTime()
    const read = await adapter.receivedInPeriod([a, b], { fromMs: now - 30 * 86_400_000, toMs: now })
    expect(read.transfers).toEqual([])
    expect(read.unread).toEqual([
      { address: a, message: expect.stringContaining('narrow the period'), narrow: true },
      { address: b, message: expect.stringContaining('narrow the period'), narrow: true },
    ])
    expect(adapter.providers.requestBudget().usedToday).toBe(before)
  }, 120_000)

  it('answers "narrow the period" once the blocks are known to take too many requests, blaming no provider', async () => {
    const adapter = adapterFor(anvil, tokens, 1)
    const fromMs = (await blockTime()) + 1000
    await anvil.client.increaseTime({ seconds: 2 })
    // More blocks in a minute than the chain's block time suggests: each a log request at one block a range.
    await anvil.client.mine({ blocks: MAX_PERIOD_REQUESTS + 20, interval: 0 })
    await anvil.client.mine({ blocks: DEPTH })
    const read = await adapter.receivedInPeriod([a], { fromMs, toMs: fromMs + 60_000 })
    expect(read.unread).toEqual([
      { address: a, message: expect.stringContaining('narrow the period'), narrow: true },
    ])
    expect(adapter.providers.health().map((h) => h.state)).toEqual(['healthy'])
    expect(adapter.providers.requestBudget().usedToday).toBeLessThan(60)
  }, 120_000)
})
