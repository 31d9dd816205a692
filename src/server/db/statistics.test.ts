import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { createTestDatabase, engines } from '../../../tests/support/test-db'
import { refreshStatistics } from './statistics'

async function plannerRows(db: Parameters<typeof refreshStatistics>[0]): Promise<number> {
  const result = (await db.execute(
    sql`select reltuples::int as n from pg_class where relname = 'orders'`,
  )) as unknown as { rows: { n: number }[] }
  return result.rows[0]?.n ?? -1
}

describe.each(engines)('planner statistics on %s', (engine) => {
  it('are refreshed once a table changed by more than autovacuum would allow, and only then', async () => {
    const database = await createTestDatabase(engine)
    try {
      const { db } = database
      await db.execute(sql`analyze orders`)
      expect(await plannerRows(db)).toBe(0)
      await db.execute(sql`
        insert into orders (id, email, items, total_cents, wallet_address, expires_at, grace_until)
        select gen_random_uuid(), 'buyer' || i || '@example.com', '[]'::jsonb, 100, 'T' || i, now(), now()
        from generate_series(1, 500) as i`)
      // The write counters reach the statistics views shortly after the commit.
      let analysed: string[] = []
      for (const deadline = Date.now() + 10_000; !analysed.includes('orders') && Date.now() < deadline; ) {
        await new Promise((r) => setTimeout(r, 100))
        analysed = await refreshStatistics(db)
      }
      expect(analysed).toContain('orders')
      expect(await plannerRows(db)).toBe(500)
      // Fresh statistics: nothing to do until the next 100 changes.
      expect(await refreshStatistics(db)).not.toContain('orders')
    } finally {
      await database.close()
    }
  })
})
