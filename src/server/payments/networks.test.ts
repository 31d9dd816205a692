import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'

// secure_get_payment_networks: what the checkout offers, from the enabled chains.
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
