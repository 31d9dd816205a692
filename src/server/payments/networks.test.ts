import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminSession, createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'

// secure_get_payment_networks (what the checkout offers) and secure_fetch_chains (the admin's Chain
// tab), from the enabled chains.
describe.each(engines)('payment networks on %s', (engine) => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(engine)
  })
  afterAll(() => t.close())

  it('a shop with TRON alone offers TRON with USDT and TRX, the chain saying when a block is final', async () => {
    const answer = await rpc(t.app, 'secure_get_payment_networks')
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      success: true,
      networks: [
        {
          chain: 'tron',
          family: 'tron',
          tokens: [
            { symbol: 'USDT', decimals: 6 },
            { symbol: 'TRX', decimals: 6 },
          ],
          confirmations: null,
        },
      ],
    })
  })

  it('refuses a payload it does not take with a 400', async () => {
    const answer = await rpc(t.app, 'secure_get_payment_networks', { p_chain: 'bsc' })
    expect(answer.status).toBe(400)
  })
})

describe.each(engines)('payment networks with EVM chains on %s', (engine) => {
  let t: TestApp
  beforeAll(async () => {
    // Nothing listens on port 9: the chains are listed, their providers failing.
    t = await createTestApp(engine, {
      ADMIN_PASSWORD: 'networks-Password-1',
      EVM_BSC_ENABLED: 'true',
      EVM_BSC_PROVIDER_1_URL: 'http://127.0.0.1:9',
      EVM_BASE_ENABLED: 'true',
      EVM_BASE_CONFIRMATIONS: '20',
      EVM_BASE_PROVIDER_1_URL: 'http://127.0.0.1:9',
      EVM_BASE_PROVIDER_1_NAME: 'base-rpc',
    })
  })
  afterAll(() => t.close())

  it('offers each enabled chain after TRON with its tokens and their decimals (18 on BNB Smart Chain)', async () => {
    const answer = await rpc(t.app, 'secure_get_payment_networks')
    const networks = answer.body.networks as { chain: string; tokens: unknown; confirmations: unknown }[]
    expect(networks.map((n) => n.chain)).toEqual(['tron', 'bsc', 'base'])
    expect(networks[1]).toMatchObject({
      family: 'evm',
      tokens: [
        { symbol: 'USDT', decimals: 18 },
        { symbol: 'USDC', decimals: 18 },
      ],
    })
    expect(networks[2]).toMatchObject({ tokens: [{ symbol: 'USDC', decimals: 6 }], confirmations: 20 })
  })

  it('the Chain tab lists every enabled chain with its providers, heights and requests; admins only', async () => {
    expect((await rpc(t.app, 'secure_fetch_chains')).status).toBe(401)
    const answer = await rpc(t.app, 'secure_fetch_chains', {}, await adminSession(t))
    expect(answer.status).toBe(200)
    const chains = answer.body.chains as Record<string, unknown>[]
    expect(chains.map((c) => c.chain)).toEqual(['tron', 'bsc', 'base'])
    expect(chains[2]).toMatchObject({
      family: 'evm',
      confirmations: 20,
      recorded: null,
      providers: [{ name: 'base-rpc', host: 'http://127.0.0.1:9' }],
    })
    expect(chains[0]).toMatchObject({ chain: 'tron', confirmations: null })
    for (const c of chains) expect(typeof c.requests_today).toBe('number')
  })
})
