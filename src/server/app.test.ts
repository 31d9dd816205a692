import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, rpc, type TestApp } from '../../tests/support/test-app'
import { pgliteOnly } from '../../tests/support/test-db'
import { waitFor } from '../../tests/support/wait'

const calls = ['fetch_products', 'secure_fetch_site_content']

describe.each(pgliteOnly)('HTTP edge on %s', (engine) => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(engine)
  })
  afterAll(() => t.close())

  it('GET /api/health is 200 while the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ status: 'ok' })
  })

  it.each(calls)('%s refuses bad input with a clear 4xx and keeps serving', async (call) => {
    const cases: { payload: string; type?: string; status: number; error: RegExp }[] = [
      { payload: '{not json', status: 400, error: /not valid JSON/ },
      { payload: '[1,2,3]', status: 400, error: /JSON object/ },
      { payload: '"text"', status: 400, error: /JSON object/ },
      { payload: '{"p_extra":1}', status: 400, error: /unknown field.*p_extra/ },
      { payload: `{"x":"${'a'.repeat(1024 * 1024)}"}`, status: 413, error: /too large/ },
      { payload: 'hello', type: 'text/plain', status: 400, error: /JSON object/ },
      { payload: '<a/>', type: 'application/xml', status: 415, error: /content type/ },
    ]
    for (const c of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/rpc/${call}`,
        payload: c.payload,
        headers: { 'content-type': c.type ?? 'application/json' },
      })
      expect(res.statusCode, c.payload.slice(0, 30)).toBe(c.status)
      expect(res.json()).toMatchObject({ success: false, error: expect.stringMatching(c.error) })
    }
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: `/rpc/${call}` })
      expect(res.statusCode).toBe(405)
      expect(res.headers.allow).toBe('POST')
    }
    // Still serving after all of that, and an empty body means {}.
    const ok = await t.app.inject({ method: 'POST', url: `/rpc/${call}` })
    expect(ok.statusCode).toBe(200)
    expect(ok.json().success).toBe(true)
  })

  it('an unknown call is a 404 with a message', async () => {
    const { status, body } = await rpc(t.app, 'drop_everything')
    expect(status).toBe(404)
    expect(body).toEqual({ success: false, error: 'Unknown call drop_everything' })
  })

  it('sets security headers on every answer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' })
    expect(res.headers['content-security-policy']).toContain("default-src 'self'")
    expect(res.headers['x-content-type-options']).toBe('nosniff')
  })

  it('GET /api/health is 503 once the database is gone', async () => {
    await t.database.close()
    // Health answers from a result at most a second old (logging-health.test.ts times that).
    await waitFor(
      'health to say 503',
      async () => (await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode === 503,
      2500,
    )
  })
})
