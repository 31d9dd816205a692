import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDevchain, type Devchain } from '../../../tools/devchain/devchain'
import { createTrxPriceSource } from './trx-price'

let chain: Devchain

beforeAll(async () => {
  chain = await createDevchain({ priceUsd: '0.2871' })
})
afterAll(() => chain.close())
beforeEach(() => {
  chain.setFault('none')
  chain.setPrice('0.2871')
  chain.resetStats()
})

describe.each(['coingecko', 'binance'] as const)('TRX price from %s (devchain)', (source) => {
  it('reads the rate exactly, as a decimal', async () => {
    const prices = createTrxPriceSource({ source, baseUrl: chain.url })
    const result = await prices.getRate()
    expect(result).toMatchObject({ status: 'success', rate: '0.2871', rateE8: 28_710_000n })
  })

  it('caches the rate for at most the TTL', async () => {
    let clock = 1_000_000
    const prices = createTrxPriceSource({ source, baseUrl: chain.url, ttlMs: 60_000, now: () => clock })
    await Promise.all([prices.getRate(), prices.getRate(), prices.getRate()])
    expect(chain.stats().requests).toBe(1)
    chain.setPrice('0.3')
    clock += 59_000
    expect(await prices.getRate()).toMatchObject({ rate: '0.2871' })
    clock += 1_000
    expect(await prices.getRate()).toMatchObject({ rate: '0.3' })
    expect(chain.stats().requests).toBe(2)
  })

  it.each(['http503', 'http429', 'malformed', 'http500'] as const)(
    'a %s answer is an error value',
    async (mode) => {
      chain.setFault(mode, 1)
      const prices = createTrxPriceSource({ source, baseUrl: chain.url })
      const result = await prices.getRate()
      expect(result.status).toBe('error')
    },
  )

  it('a timeout is an error value, within the timeout', async () => {
    chain.setFault('timeout', 1)
    const prices = createTrxPriceSource({ source, baseUrl: chain.url, timeoutMs: 300 })
    const started = Date.now()
    expect((await prices.getRate()).status).toBe('error')
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('an implausible price is refused, and a stale rate is never served past the TTL', async () => {
    let clock = 0
    const prices = createTrxPriceSource({
      source,
      baseUrl: chain.url,
      ttlMs: 60_000,
      retryAfterMs: 0,
      now: () => clock,
    })
    expect((await prices.getRate()).status).toBe('success')
    chain.setPrice('5000')
    clock += 61_000
    const result = await prices.getRate()
    expect(result).toMatchObject({ status: 'error', reason: expect.stringMatching(/implausible/) })
  })

  it('after a failure, callers get the failure at once instead of waiting on the source again', async () => {
    let clock = 0
    chain.setFault('http503', 1)
    const prices = createTrxPriceSource({
      source,
      baseUrl: chain.url,
      retryAfterMs: 30_000,
      now: () => clock,
    })
    expect((await prices.getRate()).status).toBe('error')
    expect((await prices.getRate()).status).toBe('error')
    expect(chain.stats().requests).toBe(1)
    clock += 30_000
    expect((await prices.getRate()).status).toBe('success')
  })
})

describe('fixed TRX price', () => {
  it('fixed:<usd> needs no network', async () => {
    expect(await createTrxPriceSource({ source: 'fixed:0.25' }).getRate()).toMatchObject({
      status: 'success',
      rateE8: 25_000_000n,
    })
    expect((await createTrxPriceSource({ source: 'fixed:900' }).getRate()).status).toBe('error')
  })

  it('an unreachable host is an error value', async () => {
    const prices = createTrxPriceSource({
      source: 'coingecko',
      baseUrl: 'http://127.0.0.1:9',
      timeoutMs: 500,
    })
    expect((await prices.getRate()).status).toBe('error')
  })
})
