import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { createTestDatabase, engines } from '../../../tests/support/test-db'

// The admin search's trigram index exists only on PostgreSQL (PGlite does not load pg_trgm). Its
// pending list is kept small, so no checkout pays for merging thousands of orders' trigrams at once.
describe.skipIf(!engines.includes('postgres'))('the orders search index on postgres', () => {
  it('is a trigram GIN index with a 1 MB pending list', async () => {
    const database = await createTestDatabase('postgres')
    try {
      const result = (await database.db.execute(sql`
        select am.amname, c.reloptions from pg_class c join pg_am am on am.oid = c.relam
        where c.relname = 'orders_search_trgm_idx'`)) as unknown as {
        rows: { amname: string; reloptions: string[] | null }[]
      }
      expect(result.rows).toEqual([{ amname: 'gin', reloptions: ['gin_pending_list_limit=1024'] }])
    } finally {
      await database.close()
    }
  })
})
