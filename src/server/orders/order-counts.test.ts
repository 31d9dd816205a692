import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { createTestDatabase, engines } from '../../../tests/support/test-db'
import type { Db } from '../db/client'
import { orderCountsByStatus } from './orders.repo'

async function counted(db: Db): Promise<Record<string, number>> {
  const result = (await db.execute(
    sql`select status, count(*)::int as n from orders group by status`,
  )) as unknown as { rows: { status: string; n: number }[] }
  return Object.fromEntries(result.rows.map((r) => [r.status, r.n]))
}

describe.each(engines)('orders per status on %s', (engine) => {
  it('the counters follow inserts, status changes, other updates, deletes and rollbacks exactly', async () => {
    const database = await createTestDatabase(engine)
    try {
      const { db } = database
      await db.execute(sql`
        insert into orders (id, email, items, total_cents, wallet_address, status, window_ends_at, grace_until)
        select gen_random_uuid(), 'buyer' || i || '@example.com', '[]'::jsonb, 100, 'T' || i,
               (array['pending', 'paid', 'completed', 'cancelled'])[1 + i % 4], now(), now()
        from generate_series(1, 40) as i`)
      expect(Object.fromEntries(await orderCountsByStatus(db))).toEqual({
        pending: 10,
        paid: 10,
        completed: 10,
        cancelled: 10,
      })
      await db.execute(
        sql`update orders set status = 'cancelled' where status = 'pending' and email like 'buyer1%'`,
      )
      await db.execute(sql`update orders set total_cents = 200 where status = 'paid'`)
      await db.execute(sql`delete from orders where status = 'completed' and email like 'buyer2%'`)
      await db
        .transaction(async (tx) => {
          await tx.execute(sql`delete from orders`)
          throw new Error('roll back')
        })
        .catch(() => {})
      const expected = await counted(db)
      expect(expected.cancelled).toBeGreaterThan(10)
      expect(Object.fromEntries(await orderCountsByStatus(db))).toEqual(expected)
    } finally {
      await database.close()
    }
  })
})
