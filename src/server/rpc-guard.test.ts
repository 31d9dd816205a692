import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminSession, createTestApp, type TestApp } from '../../tests/support/test-app'
import { engines } from '../../tests/support/test-db'

// The admin guard (session, origin) answers before anything the payload holds, on every admin
// call the registry knows: a caller without a session learns nothing about the fields.

describe.each(engines)('admin guard first, on every call (%s)', (engine) => {
  let t: TestApp
  let session: Record<string, string>
  const hostile = { p_order_id: 'x\u0000', p_chain: 99, p_token: 'USDC', p_unknown: '\ud800' }

  beforeAll(async () => {
    t = await createTestApp(engine, { ADMIN_PASSWORD: 'guard-first-password' })
    session = await adminSession(t)
  })
  afterAll(() => t.close())

  const adminCalls = () =>
    t.app.services.rpc
      .list()
      .filter((def) => def.admin)
      .map((def) => def.name)

  const post = (name: string, payload: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/rpc/${name}`,
      payload,
      headers: { 'content-type': 'application/json', ...headers },
    })

  it('the registry holds the admin calls this walk must reach', () => {
    expect(adminCalls()).toEqual(
      expect.arrayContaining([
        'secure_fetch_refundable',
        'secure_create_return',
        'secure_create_refund',
        'secure_fetch_providers',
        'secure_fetch_orders',
      ]),
    )
    expect(adminCalls().length).toBeGreaterThan(40)
  })

  it('without a session every admin call is a 401, whatever the payload holds', async () => {
    const wrong: string[] = []
    for (const name of adminCalls()) {
      for (const payload of [JSON.stringify(hostile), '{"p_order_id":', '[1,2]']) {
        const res = await post(name, payload)
        if (res.statusCode !== 401) wrong.push(`${name} ${payload}: ${res.statusCode} ${res.body}`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('cross-site every admin call is a 403 before its fields are read, even with a session', async () => {
    const wrong: string[] = []
    for (const name of adminCalls()) {
      for (const headers of [
        { ...session, 'sec-fetch-site': 'cross-site' },
        { ...session, origin: 'https://elsewhere.example' },
      ]) {
        const res = await post(name, JSON.stringify(hostile), headers)
        if (res.statusCode !== 403)
          wrong.push(`${name} ${JSON.stringify(headers)}: ${res.statusCode} ${res.body}`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('with a session the same payloads reach the field checks: a 400 naming the field', async () => {
    const nul = await post('secure_fetch_refundable', JSON.stringify({ p_order_id: 'x\u0000' }), session)
    expect(nul.statusCode).toBe(400)
    expect(nul.json().error).toMatch(/p_order_id contains a NUL/)
    const malformed = await post('secure_create_return', '{"p_payment_id":', session)
    expect(malformed.statusCode).toBe(400)
    const notObject = await post('secure_fetch_refundable', '[1,2]', session)
    expect(notObject.statusCode).toBe(400)
    expect(notObject.json().error).toMatch(/must be a JSON object/)
  })
})
