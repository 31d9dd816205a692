import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { createTestDatabase, engines } from '../../../tests/support/test-db'
import { openDatabase } from './client'
import { products } from './schema'
import { demoProducts, seedOnce } from './seed'

describe.each(engines)('seed on %s', (engine) => {
  it('seeds the demo catalogue once; deleted demo products do not come back', async () => {
    const database = await createTestDatabase(engine)
    try {
      expect(await seedOnce(database.db)).toBe(true)
      expect(await database.db.select().from(products)).toHaveLength(demoProducts.length)
      await database.db.delete(products)
      expect(await seedOnce(database.db)).toBe(false)
      expect(await database.db.select().from(products)).toHaveLength(0)
    } finally {
      await database.close()
    }
  })
})

describe('the embedded database on disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stablecart-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  // From source there is no built cluster: PGlite's initdb runs, which alone took 18 s of the 30 s
  // default on a busy shared machine.
  it('a second start keeps what the first wrote', { timeout: 60_000 }, async () => {
    const first = await openDatabase({ dataDir: dir })
    await seedOnce(first.db)
    await first.db.update(products).set({ name: 'Renamed by the merchant' }).where(eq(products.id, 1))
    await first.close()

    const second = await openDatabase({ dataDir: dir })
    expect(await seedOnce(second.db)).toBe(false)
    const [row] = await second.db.select().from(products).where(eq(products.id, 1))
    expect(row?.name).toBe('Renamed by the merchant')
    expect(await second.db.select().from(products)).toHaveLength(demoProducts.length)
    await second.close()
  })
})
