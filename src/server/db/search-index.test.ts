import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { createTestDatabase, engines } from '../../../tests/support/test-db'

// The admin search's trigram index exists on both engines (PGlite loads pg_trgm), so a search at a
// million orders reads the index. Its pending list is kept small, so no checkout pays for merging
// thousands of orders' trigrams at once.
describe.each(engines)('the orders search index on %s', (engine) => {
  it('is a trigram GIN index with a 1 MB pending list, and the search uses it', async () => {
    const database = await createTestDatabase(engine)
    try {
      const result = (await database.db.execute(sql`
        select am.amname, c.reloptions from pg_class c join pg_am am on am.oid = c.relam
        where c.relname = 'orders_search_trgm_idx'`)) as unknown as {
        rows: { amname: string; reloptions: string[] | null }[]
      }
      expect(result.rows).toEqual([{ amname: 'gin', reloptions: ['gin_pending_list_limit=1024'] }])
      // An empty table is cheapest to scan; with scans ruled out the planner shows the index serves it.
      const plan = await database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`)
        return (await tx.execute(sql`
          explain select id from orders
          where lower(id::text || ' ' || email || ' ' || wallet_address) like '%buyer42%'`)) as unknown as {
          rows: { 'QUERY PLAN': string }[]
        }
      })
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('orders_search_trgm_idx')
    } finally {
      await database.close()
    }
  })
})
