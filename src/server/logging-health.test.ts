import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SpawnedShop, spawnShop } from '../../tests/support/spawn-shop'
import { createTestApp } from '../../tests/support/test-app'
import { createTestDatabase, engines } from '../../tests/support/test-db'
import { waitFor } from '../../tests/support/wait'

describe('request logging', () => {
  // Two real servers, started side by side (a fresh data folder takes several seconds).
  let info: SpawnedShop
  let debug: SpawnedShop
  beforeAll(async () => {
    ;[info, debug] = await Promise.all([
      spawnShop({ LOG_LEVEL: 'info', LOG_SLOW_REQUEST_MS: '1' }),
      spawnShop({ LOG_LEVEL: 'debug' }),
    ])
  })
  afterAll(async () => {
    await Promise.all([info?.stop(), debug?.stop()])
  })

  const traffic = async (shop: SpawnedShop) => {
    await fetch(`${shop.url}/api/health`)
    await fetch(`${shop.url}/rpc/fetch_products`, { method: 'POST' })
  }

  it('at info logs slow requests only, never every request', async () => {
    const shop = info
    await traffic(shop)
    await waitFor('a slow-request line', () =>
      /"url":"\/rpc\/fetch_products".*"msg":"slow request"/.test(shop.output()),
    )
    expect(shop.output()).not.toContain('request completed')
    expect(shop.output()).not.toContain('incoming request')
  })

  it('at debug logs every request', async () => {
    const shop = debug
    await traffic(shop)
    await waitFor('request lines', () => shop.output().includes('request completed'))
    expect(shop.output()).toContain('incoming request')
  })
})

describe.each(engines)('GET /api/health on %s', (engine) => {
  it('answers from a result at most a second old', async () => {
    const database = await createTestDatabase(engine)
    const t = await createTestApp(engine, {}, { database })
    try {
      const health = () => t.app.inject({ method: 'GET', url: '/api/health' })
      const asked = Date.now()
      expect((await health()).statusCode).toBe(200)
      await database.close()
      // The database is gone; the answer cached by the first call stands until it is a second old
      // (it was stored after `asked`), then health says so.
      await waitFor('health to notice', async () => (await health()).statusCode === 503, 5000)
      expect(Date.now() - asked).toBeGreaterThanOrEqual(990)
    } finally {
      await t.app.close()
    }
  })
})
