import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { createTestDatabase, engines } from '../../../tests/support/test-db'
import { createStatisticsKeeper, refreshStatistics } from './statistics'

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
        insert into orders (id, email, items, total_cents, wallet_address, window_ends_at, grace_until)
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

  it('the keeper analyses a stale table when it starts, and again once it has grown past the threshold', async () => {
    const database = await createTestDatabase(engine)
    const { db } = database
    const insert = (from: number, to: number) =>
      db.execute(sql`
        insert into orders (id, email, items, total_cents, wallet_address, window_ends_at, grace_until)
        select gen_random_uuid(), 'buyer' || i || '@example.com', '[]'::jsonb, 100, 'T' || i, now(), now()
        from generate_series(${from}::int, ${to}::int) as i`)
    const planned = async (rows: number) => {
      for (const deadline = Date.now() + 15_000; Date.now() < deadline; ) {
        if ((await plannerRows(db)) === rows) return rows
        await new Promise((r) => setTimeout(r, 100))
      }
      return plannerRows(db)
    }
    const keeper = createStatisticsKeeper({ db, intervalMs: 200 })
    try {
      await db.execute(sql`analyze orders`)
      await insert(1, 400)
      // Written before the shop started: its first pass finds the table stale.
      keeper.start()
      expect(await planned(400)).toBe(400)
      // Grown past 50 + 10 % of 400 rows while it runs: analysed again at a later pass.
      await insert(401, 1200)
      expect(await planned(1200)).toBe(1200)
    } finally {
      await keeper.stop()
      await database.close()
    }
  })
})
