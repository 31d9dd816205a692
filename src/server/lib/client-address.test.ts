import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'

// The calls that guard secrets (a dashboard token, an order-link token, a transaction hash) count a
// client as the checkout does: an IPv6 client by its /64. Two addresses of one /64 share one limit;
// a neighbouring /64 has its own.

const ZERO_HASH = '0'.repeat(64)
const UNKNOWN_TOKEN = 'A'.repeat(43)

const calls = [
  {
    name: 'secure_fetch_dashboard',
    limit: 20,
    payload: () => ({ p_access_token: UNKNOWN_TOKEN }),
  },
  {
    name: 'secure_open_order_links',
    limit: 20,
    payload: () => ({ p_token: UNKNOWN_TOKEN }),
  },
  {
    name: 'secure_confirm_transaction',
    limit: 10,
    // An order that does not exist: refused after the limit is counted, before any explorer call.
    payload: () => ({ p_order_id: '00000000-0000-4000-8000-000000000000', p_transaction_hash: ZERO_HASH }),
  },
] as const

describe.each(engines)('rate-limit client key on %s', (engine) => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(engine)
  })
  afterAll(() => t.close())

  const ask = async (name: string, payload: object, ip: string) => {
    const res = await t.app.inject({ method: 'POST', url: `/rpc/${name}`, payload, remoteAddress: ip })
    return res.statusCode
  }

  it.each(calls)('$name: two addresses of one IPv6 /64 share one limit', async (call) => {
    // A /64 of its own for each call, so the three limiters' counts cannot meet.
    const net = `2001:db8:${calls.indexOf(call) + 10}`
    for (let i = 0; i < call.limit; i++) {
      expect(await ask(call.name, call.payload(), `${net}:1::${i + 1}`)).toBe(200)
    }
    // Another address of the same /64 (written out in full, other case): refused.
    expect(await ask(call.name, call.payload(), `${net}:1:FFFF:0:0:ABCD`)).toBe(429)
    expect(await ask(call.name, call.payload(), `${net}:1::1`)).toBe(429)
    // The neighbouring /64 has a limit of its own.
    expect(await ask(call.name, call.payload(), `${net}:2::1`)).toBe(200)
  })
})
