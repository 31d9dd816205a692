import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { migrationsBefore } from '../../../tests/support/migrations-before'
import { pgTestUrl } from '../../../tests/support/pg-url'
import { engines } from '../../../tests/support/test-db'
import { type BackupTarget, backupDatabase, pgliteDir, restoreDatabase } from '../ops/backup'
import { type Database, openPglite, openPostgres } from './client'
import { pgliteOptions } from './pglite-options'
import { orderDayCounts, orders, paymentSightings, payments } from './schema'

// Migration 0036 renames TRON's words in storage to chain-neutral ones (the native coin's amounts,
// the 'native' transfer source). A shop's backup taken before it restores, and the migration then
// moves the backup's data into the new schema: every amount, source and sales counter kept.

const MIGRATION = '0036_chain_neutral_names'
const before = migrationsBefore(MIGRATION)
const work = mkdtempSync(join(tmpdir(), 'stablecart-0036-'))
afterAll(() => {
  rmSync(before, { recursive: true, force: true })
  rmSync(work, { recursive: true, force: true })
})

const TRX_ORDER = '00000000-0000-4000-8000-000000000001'
const USDT_ORDER = '00000000-0000-4000-8000-000000000002'
const LATER_ORDER = '00000000-0000-4000-8000-000000000003'

type Exec = (query: ReturnType<typeof sql>) => Promise<unknown>

/** A paid TRX order (40.04 TRX at $0.25), a paid USDT order, their ledger rows and a sighting, as 0035 stored them. */
async function seedOldSchema(exec: Exec) {
  await exec(sql`
    insert into orders (id, email, items, total_cents, wallet_address, window_ends_at, grace_until, status,
                        paid_at, trx_amount_sun, trx_rate_e8, trx_received_sun, amount_received_units) values
      (${TRX_ORDER}, 'a@example.com', '[]'::jsonb, 1001, 'TAddr1', now(), now(), 'paid',
       '2026-03-03T01:00:00Z', 40040000, 25000000, 40040000, 0),
      (${USDT_ORDER}, 'b@example.com', '[]'::jsonb, 4999, 'TAddr2', now(), now(), 'paid',
       '2026-03-03T02:00:00Z', null, null, 0, 49990000),
      (${LATER_ORDER}, 'c@example.com', '[]'::jsonb, 500, 'TAddr3', now(), now(), 'pending',
       null, 20000000, 25000000, 0, 0)`)
  await exec(sql`
    insert into payments (chain, order_id, status, tx_id, source, event_index, token, amount_units,
                          from_address, to_address, block_number, block_timestamp) values
      ('tron', ${TRX_ORDER}, 'credited', ${'ab'.repeat(32)}, 'trx', 0, 'TRX', 40040000, 'TBuyer', 'TAddr1', 10, 1),
      ('tron', ${USDT_ORDER}, 'credited', ${'cd'.repeat(32)}, 'log', 0, 'USDT', 49990000, 'TBuyer', 'TAddr2', 11, 2)`)
  await exec(sql`
    insert into payment_sightings (chain, order_id, tx_id, source, event_index, token, amount_units,
                                   from_address, to_address, block_number, block_timestamp, status) values
      ('tron', ${TRX_ORDER}, ${'ab'.repeat(32)}, 'trx', 0, 'TRX', 40040000, 'TBuyer', 'TAddr1', 10, 1, 'confirmed')`)
}

async function expectMovedData(database: Database) {
  const { db } = database
  const rows = async (query: ReturnType<typeof sql>) =>
    ((await db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows
  // The schema the code reads (drizzle's names) holds the backup's amounts.
  const orderRows = await db
    .select({
      id: orders.id,
      asked: orders.nativeAmountUnits,
      rate: orders.nativeRateE8,
      received: orders.nativeReceivedUnits,
    })
    .from(orders)
    .orderBy(orders.id)
  expect(orderRows).toEqual([
    { id: TRX_ORDER, asked: 40040000n, rate: 25000000n, received: 40040000n },
    { id: USDT_ORDER, asked: null, rate: null, received: 0n },
    { id: LATER_ORDER, asked: 20000000n, rate: 25000000n, received: 0n },
  ])
  const ledger = await db
    .select({ source: payments.source, token: payments.token })
    .from(payments)
    .orderBy(payments.txId)
  expect(ledger).toEqual([
    { source: 'native', token: 'TRX' },
    { source: 'log', token: 'USDT' },
  ])
  const sightings = await db.select({ source: paymentSightings.source }).from(paymentSightings)
  expect(sightings).toEqual([{ source: 'native' }])
  // Nothing is left under TRON's words.
  expect(
    await rows(sql`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and (column_name like 'trx%')`),
  ).toEqual([])
  // The sales counters kept their sums, and the triggers keep them under the new names.
  const counters = async () =>
    (
      await db
        .select({
          units: sql<string>`sum(${orderDayCounts.nativeUnits})::text`,
          micros: sql<string>`sum(${orderDayCounts.nativeMicros})::text`,
          usdt: sql<string>`sum(${orderDayCounts.usdt})::text`,
        })
        .from(orderDayCounts)
    )[0]
  expect(await counters()).toEqual({ units: '40040000', micros: '10010000', usdt: '49990000' })
  await db.execute(sql`
    update orders set status = 'paid', paid_at = '2026-03-04T00:00:00Z', native_received_units = 20000000
    where id = ${LATER_ORDER}`)
  expect(await counters()).toEqual({ units: '60040000', micros: '15010000', usdt: '49990000' })
}

async function withPostgresDatabase<T>(run: (url: string) => Promise<T>): Promise<T> {
  const base = pgTestUrl() as string
  const name = `stablecart_0036_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: base })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(base)
  url.pathname = `/${name}`
  try {
    return await run(url.toString())
  } finally {
    const dropper = new pg.Client({ connectionString: base })
    await dropper.connect()
    await dropper.query(`drop database if exists ${name} with (force)`).catch(() => {})
    await dropper.end()
  }
}

describe.each(engines)('a backup from before migration 0036, on %s', (engine) => {
  it('restores, and the migration moves its TRX amounts, sources and counters to the chain-neutral names', async () => {
    const file = join(work, `${engine}.backup`)
    if (engine === 'pglite') {
      const old: BackupTarget = { dataDir: join(work, 'old') }
      mkdirSync(pgliteDir(old), { recursive: true })
      const client = new PGlite(pgliteDir(old), pgliteOptions())
      const db = drizzlePglite({ client })
      await migratePglite(db, { migrationsFolder: before })
      await seedOldSchema((q) => db.execute(q))
      await client.close()
      await backupDatabase(old, file)

      const target: BackupTarget = { dataDir: join(work, 'restored') }
      await restoreDatabase(target, file)
      const database = await openPglite(new PGlite(pgliteDir(target), pgliteOptions()))
      try {
        await expectMovedData(database)
      } finally {
        await database.close()
      }
      return
    }
    await withPostgresDatabase(async (oldUrl) => {
      const pool = new pg.Pool({ connectionString: oldUrl, max: 1 })
      const db = drizzlePg({ client: pool })
      await migratePg(db, { migrationsFolder: before })
      await seedOldSchema((q) => db.execute(q))
      await pool.end()
      await backupDatabase({ databaseUrl: oldUrl, dataDir: work }, file)
      await withPostgresDatabase(async (url) => {
        await restoreDatabase({ databaseUrl: url, dataDir: work }, file)
        const database = await openPostgres(url)
        try {
          await expectMovedData(database)
        } finally {
          await database.close()
        }
      })
    })
  }, 180_000)
})
