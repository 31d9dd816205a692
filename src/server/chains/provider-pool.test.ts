import { sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createPaymentFixture, type PaymentFixture } from '../../../tests/support/payment-fixture'
import { engines } from '../../../tests/support/test-db'
import { waitFor } from '../../../tests/support/wait'
import { createDevchain, type Devchain, type DevchainFace } from '../../../tools/devchain/devchain'
import type { FollowResult } from './chain-follower'
import type { TronProviderConfig } from './tron/tron-env'
import { createProviderPool, type ProviderPool } from './tron/tron-pool'

// Several providers in front of one chain: the devchain's main listener and extra faces of the same
// chain, each with its own faults, stop/start and (for one test) a fork. Real HTTP throughout.

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'

const provider = (
  name: string,
  url: string,
  extra: Partial<TronProviderConfig> = {},
): TronProviderConfig => ({
  name,
  url,
  keys: [],
  rps: 200,
  perDay: null,
  ...extra,
})

function pool(providers: TronProviderConfig[], onSetAside?: (name: string, reason: string) => void) {
  return createProviderPool({
    providers,
    usdtContract: USDT,
    timeoutMs: 400,
    coolingBaseMs: 50,
    maxCoolingMs: 200,
    staleAfterMs: 300,
    onSetAside,
  })
}

/** Blocks committed by these passes; equal to the checkpoint's move when none was skipped. */
const committed = (results: FollowResult[]) => results.reduce((n, r) => n + r.blocks, 0)

describe.each(engines)('two providers on %s', (engine) => {
  let f: PaymentFixture
  let first: DevchainFace
  let providers: ProviderPool
  const setAside: string[] = []

  beforeAll(async () => {
    f = await createPaymentFixture(engine, {
      follower: async (chain) => {
        first = await chain.addFace()
        providers = pool([provider('first', first.url), provider('second', chain.url)], (name) =>
          setAside.push(name),
        )
        return providers
      },
    })
  })
  afterAll(() => f.close())
  afterEach(async () => {
    first.setFault('none')
    first.fork(null)
    await first.start()
  })

  const checkpoint = async () =>
    Number((await f.rows(sql`select checkpoint_block from follower_state`))[0]?.checkpoint_block)
  const ledgerOf = (txId: string) => f.rows(sql`select * from payments where tx_id = ${txId}`)

  it('credits through the second while the first faults or dies mid-range, and uses the first again when back', async () => {
    const faults = ['http429', 'http500', 'timeout', 'empty', 'kill'] as const
    for (const fault of faults) {
      await waitFor(
        'the first provider to be healthy',
        () => providers.health()[0]?.state === 'healthy',
        5000,
      )
      const orders = [await f.placeOrder(), await f.placeOrder()]
      const sent = []
      // Two payments some blocks apart, so that the first provider fails between them (mid-range).
      sent.push(await f.send({ to: orders[0]?.address as string, amount: orders[0]?.total.toFixed(2) }))
      f.chain.mine(25)
      sent.push(await f.send({ to: orders[1]?.address as string, amount: orders[1]?.total.toFixed(2) }))
      const target = (sent[1]?.block as number) + 1
      f.chain.mine(target + f.lag - f.chain.heights().head)
      const before = await checkpoint()
      const results: FollowResult[] = [await f.follower.runOnce()]
      if (fault === 'kill') await first.stop()
      else first.setFault(fault)
      const servedBefore = first.stats().requests
      results.push(...(await f.followUntil(target)))
      expect(committed(results), fault).toBe((await checkpoint()) - before)
      for (const [i, order] of orders.entries()) {
        expect(await f.status(order.id), fault).toMatchObject({ status: 'paid' })
        expect(await ledgerOf(sent[i]?.txId as string), fault).toHaveLength(1)
      }
      const health = providers.health()
      expect(health[0]?.lastError, fault).not.toBeNull()
      expect(health[1]?.successRate, fault).toBeGreaterThan(0)
      if (fault !== 'kill') expect(first.stats().requests, fault).toBeGreaterThan(servedBefore)
      first.setFault('none')
      await first.start()
    }

    // Back: once its cool-down has passed, the first provider is asked first again.
    await waitFor('the first provider to cool down', () => providers.health()[0]?.state === 'healthy', 5000)
    const servedBefore = first.stats().requests
    const o = await f.placeOrder()
    await f.pay({ to: o.address, amount: o.total.toFixed(2) })
    expect(await f.status(o.id)).toMatchObject({ status: 'paid' })
    expect(first.stats().requests).toBeGreaterThan(servedBefore)
    expect(setAside).toEqual([])
  })

  it('sets aside a provider serving a forked block, and records nothing from it', async () => {
    await waitFor('the first provider to cool down', () => providers.health()[0]?.state === 'healthy', 5000)
    const from = await checkpoint()
    // The first provider's chain parts from ours at our checkpoint: its next block does not follow it.
    first.fork(from)
    const o = await f.placeOrder()
    const sent = await f.send({ to: o.address, amount: o.total.toFixed(2) })

    // With the second provider down, the fork alone cannot be told from a bad checkpoint: nothing moves.
    await f.chain.stop()
    f.chain.mine(sent.block + f.lag - f.chain.heights().head)
    const alone = await f.follower.runOnce()
    expect(alone.error).toBeDefined()
    expect(await checkpoint()).toBe(from)
    expect(setAside).toEqual([])
    expect(providers.health()[0]?.lastError?.message).toMatch(/does not follow the checkpoint/)
    await f.chain.start()
    await waitFor('the first provider to cool down', () => providers.health()[0]?.state === 'healthy', 5000)

    const results = await f.followUntil(sent.block)
    expect(setAside).toEqual(['first'])
    expect(providers.health()[0]).toMatchObject({
      state: 'set_aside',
      setAside: { reason: expect.stringMatching(/checkpoint/) },
    })
    expect(committed(results)).toBe((await checkpoint()) - from)
    expect(await ledgerOf(sent.txId)).toHaveLength(1)
    expect(await f.status(o.id)).toMatchObject({ status: 'paid' })
    // The recorded block is the real one, not the fork's.
    const [state] = await f.rows(sql`select checkpoint_block_id from follower_state`)
    const real = await providers.getSolidBlocks(await checkpoint(), (await checkpoint()) + 1)
    expect(real.status === 'success' && real.blocks[0]?.blockId).toBe(state?.checkpoint_block_id)
    // Set aside: not asked any more.
    const served = first.stats().requests
    f.chain.mine(3)
    await f.follower.runOnce()
    expect(first.stats().requests).toBe(served)
  })
})

describe('keys and daily limits', () => {
  let chain: Devchain
  let face: DevchainFace

  beforeAll(async () => {
    chain = await createDevchain({ autoMine: false, blockIntervalMs: 100, solidifyLag: 3 })
    chain.mine(10)
    face = await chain.addFace()
  })
  afterAll(() => chain.close())

  it('two keys on one host share the load; a suspended key waits out its time', async () => {
    const tron = pool([provider('grid', chain.url, { keys: ['key-a', 'key-b'] })])
    chain.resetStats()
    for (let i = 0; i < 10; i++) expect((await tron.getSolidHead()).status).toBe('success')
    expect(chain.stats().apiKeys).toEqual({ 'key-a': 5, 'key-b': 5 })

    // key-a is told "suspended for 1 s": the next reads go to key-b until that time has passed.
    chain.resetStats()
    chain.setFault('http429', 1)
    const limited = await tron.getSolidHead()
    expect(limited.status).toBe('error')
    const suspendedAt = Date.now()
    for (let i = 0; i < 4; i++) expect((await tron.getSolidHead()).status).toBe('success')
    expect(chain.stats().apiKeys).toEqual({ 'key-a': 1, 'key-b': 4 })
    expect(Date.now() - suspendedAt).toBeLessThan(900)
    expect(tron.health()[0]).toMatchObject({ suspendedKeys: 1, suspendedUntil: null })
    await waitFor('key-a to be usable again', () => tron.health()[0]?.suspendedKeys === 0, 3000)
    await waitFor('the cool-down to end', () => tron.health()[0]?.state === 'healthy', 3000)
    chain.resetStats()
    for (let i = 0; i < 4; i++) expect((await tron.getSolidHead()).status).toBe('success')
    expect(chain.stats().apiKeys['key-a']).toBeGreaterThanOrEqual(1)
  })

  it('a provider whose every key is suspended, or whose day is used up, hands over to the next', async () => {
    const tron = pool([
      provider('capped', face.url, { keys: ['only'], perDay: 3 }),
      provider('spare', chain.url),
    ])
    face.resetStats()
    chain.resetStats()
    for (let i = 0; i < 5; i++) expect((await tron.getSolidHead()).status).toBe('success')
    expect(face.stats().requests).toBe(3)
    expect(chain.stats().requests).toBe(2)
    expect(tron.health()[0]).toMatchObject({ state: 'exhausted', requestsToday: 3, perDay: 3 })

    const suspended = pool([provider('limited', face.url), provider('spare', chain.url)])
    face.setFault('http403', 1)
    chain.resetStats()
    // The 403 "suspended for 1s" answer moves this read to the spare at once.
    expect((await suspended.getSolidHead()).status).toBe('success')
    expect(chain.stats().requests).toBe(1)
    expect(suspended.health()[0]).toMatchObject({
      state: 'suspended',
      lastError: { message: expect.stringMatching(/suspended/) },
    })
  })

  it('a caller who stops waiting ends the read without blaming any provider', async () => {
    const tron = pool([provider('slow', face.url), provider('spare', chain.url)])
    face.setFault('timeout', 1)
    chain.resetStats()
    const answer = await tron.getTransactionInfo('ab'.repeat(32), { signal: AbortSignal.timeout(100) })
    expect(answer.status).toBe('error')
    expect(chain.stats().requests).toBe(0)
    expect(tron.health().map((h) => h.lastError)).toEqual([null, null])
  })

  it('the operator test reads one provider, whatever its state', async () => {
    const tron = pool([provider('a', face.url), provider('b', chain.url)])
    face.setFault('http500', 1)
    expect(await tron.test('a')).toMatchObject({ ok: false, error: expect.stringMatching(/500/) })
    expect(await tron.test('a')).toMatchObject({ ok: true, solidHead: chain.heights().solid })
    expect(await tron.test('nope')).toBeNull()
  })
})
