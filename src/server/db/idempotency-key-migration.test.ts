import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { createTestDatabase, engines } from '../../../tests/support/test-db'
import { migrationsFolder } from './client'

// A shop upgraded from a version that stored idempotency keys in clear: migration 0015 keeps only
// their sha256, which is what a retry now looks up. The table is put back as it was before 0015
// (a fresh install from every migration would take far longer), then 0015 runs as written.

const statements = readFileSync(join(migrationsFolder(), '0015_idempotency_key_hash.sql'), 'utf8')
  .split('--> statement-breakpoint')
  .map((s) => s.trim())
  .filter(Boolean)

describe.each(engines)('idempotency keys stored in clear, on %s', (engine) => {
  it('become their sha256 on upgrade, still unique; orders without one keep none', async () => {
    const database = await createTestDatabase(engine)
    const { db } = database
    try {
      await db.execute(sql`alter table orders rename column idempotency_key_hash to idempotency_key`)
      await db.execute(sql`alter index orders_idempotency_key_hash_uq rename to orders_idempotency_key_uq`)
      await db.execute(sql`
        insert into orders (id, email, items, total_cents, wallet_address, window_ends_at, grace_until, idempotency_key) values
          ('00000000-0000-4000-8000-000000000001', 'a@example.com', '[]'::jsonb, 1, 'T1', now(), now(), 'key-ünï-0001'),
          ('00000000-0000-4000-8000-000000000002', 'b@example.com', '[]'::jsonb, 1, 'T2', now(), now(), null)`)

      for (const statement of statements) await db.execute(sql.raw(statement))

      const { rows } = (await db.execute(
        sql`select idempotency_key_hash as hash from orders order by id`,
      )) as unknown as { rows: { hash: string | null }[] }
      expect(rows).toEqual([
        { hash: createHash('sha256').update('key-ünï-0001').digest('hex') },
        { hash: null },
      ])
      await expect(
        db.execute(
          sql`update orders set idempotency_key_hash = ${rows[0]?.hash} where email = 'b@example.com'`,
        ),
      ).rejects.toThrow()
    } finally {
      await database.close()
    }
  })
})
