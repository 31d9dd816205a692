import { rmSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { afterAll, describe, expect, it } from 'vitest'
import { migrationsBefore } from '../../../tests/support/migrations-before'
import { migrationsFolder } from './client'

// A shop upgraded from a version that kept order lines' prices as dollar floats: the migration turns
// each into integer cents exactly, and leaves lines already in cents alone.

const MIGRATION = '0013_order_items_price_cents'

describe('order lines from before prices were kept in cents', () => {
  const before = migrationsBefore(MIGRATION)
  afterAll(() => rmSync(before, { recursive: true, force: true }))

  it('become integer cents, exactly, on upgrade', async () => {
    const client = new PGlite()
    const db = drizzle({ client })
    await migrate(db, { migrationsFolder: before })
    const line = (id: number, price: number) => ({ product: { id, name: `P${id}`, price }, quantity: 1 })
    await db.execute(sql`
      insert into orders (id, email, items, total_cents, wallet_address, expires_at, grace_until) values
        ('00000000-0000-4000-8000-000000000001', 'a@example.com',
          ${JSON.stringify([line(1, 49.99), line(2, 0.1), line(3, 1234567.89)])}::jsonb, 123461788, 'T1', now(), now()),
        ('00000000-0000-4000-8000-000000000002', 'b@example.com',
          ${JSON.stringify([{ product: { id: 4, name: 'P4', price_cents: 1999 }, quantity: 2 }])}::jsonb, 3998, 'T2', now(), now()),
        ('00000000-0000-4000-8000-000000000003', 'c@example.com', '[]'::jsonb, 1, 'T3', now(), now())`)

    await migrate(db, { migrationsFolder: migrationsFolder() })

    const { rows } = (await db.execute(sql`select id, items from orders order by id`)) as unknown as {
      rows: { id: string; items: { product: Record<string, unknown>; quantity: number }[] }[]
    }
    expect(rows.map((r) => r.items.map((i) => i.product))).toEqual([
      [
        { id: 1, name: 'P1', price_cents: 4999 },
        { id: 2, name: 'P2', price_cents: 10 },
        { id: 3, name: 'P3', price_cents: 123456789 },
      ],
      [{ id: 4, name: 'P4', price_cents: 1999 }],
      [],
    ])
    await client.close()
  }, 120_000)
})
