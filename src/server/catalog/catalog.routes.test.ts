import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { pgliteOnly } from '../../../tests/support/test-db'
import { fetchProductsAnswerSchema } from '../../shared/product'
import { products } from '../db/schema'
import { demoProducts, seedOnce } from '../db/seed'

describe.each(pgliteOnly)('fetch_products on %s', (engine) => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(engine)
    await seedOnce(t.database.db)
  })
  afterAll(() => t.close())

  it('answers every product field clients rely on', async () => {
    const { status, body } = await rpc(t.app, 'fetch_products')
    expect(status).toBe(200)
    const answer = fetchProductsAnswerSchema.parse(body)
    expect(answer.success).toBe(true)
    expect(answer.products).toHaveLength(demoProducts.length)
    const first = answer.products[0]!
    expect(Object.keys(first).sort()).toEqual(
      [
        'id',
        'name',
        'description',
        'price',
        'image',
        'features',
        'video_id',
        'is_free',
        'download_url',
        'has_details',
        'featured',
        'created_at',
      ].sort(),
    )
    expect(first).toMatchObject({ name: '4G Mobile Proxy Manager Pro', price: 49.99, has_details: true })
    // The demo catalogue covers a free download and a video.
    expect(answer.products.some((p) => p.is_free && p.download_url)).toBe(true)
    expect(answer.products.some((p) => p.video_id)).toBe(true)
    // Every image is served by the shop itself.
    expect(answer.products.every((p) => p.image.startsWith('/images/'))).toBe(true)
  })

  it('serves from memory until a write invalidates the cache', async () => {
    await t.database.db.update(products).set({ priceCents: 1234 }).where(eq(products.id, 1))
    const cached = await rpc(t.app, 'fetch_products')
    expect((cached.body.products as { price: number }[])[0]!.price).toBe(49.99)
    t.app.services.catalog.invalidate()
    const fresh = await rpc(t.app, 'fetch_products')
    expect((fresh.body.products as { price: number }[])[0]!.price).toBe(12.34)
  })
})
