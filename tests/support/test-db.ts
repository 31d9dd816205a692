import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { inject } from 'vitest'
import { type Database, openPglite, openPostgres } from '../../src/server/db/client'
import { pgliteOptions } from '../../src/server/db/pglite-options'
import { pgTestUrl } from './pg-url'

export type Engine = 'pglite' | 'postgres'

// Which engines a database test file runs on is declared in the file by which of the lists below
// its describe.each (or skipIf) takes; docs/testing.md has the rule and `npm run lint:engines`
// (tools/test-engines) enforces it and lists which files run where.

/** PGlite always; PostgreSQL too when DATABASE_URL is set (the run then has a template database). */
const available: Engine[] = inject('pgTemplate') ? ['pglite', 'postgres'] : ['pglite']

/**
 * TEST_ENGINE=pglite or TEST_ENGINE=postgres narrows a run to one engine: CI runs each engine as a
 * stage of its own, over the files tools/test-engines lists for it.
 */
function narrowed(list: Engine[]): Engine[] {
  const only = process.env.TEST_ENGINE?.trim()
  if (!only) return list
  if (only !== 'pglite' && only !== 'postgres')
    throw new Error(`TEST_ENGINE must be pglite or postgres, not ${only}`)
  if (only === 'postgres' && !available.includes('postgres'))
    throw new Error('TEST_ENGINE=postgres needs DATABASE_URL')
  return list.filter((engine) => engine === only)
}

/**
 * Every engine of the run: PGlite, and PostgreSQL when DATABASE_URL is set. The default, and the
 * safe choice: a file that takes row locks, runs raw SQL or migrations, or works concurrently must
 * use it (docs/testing.md).
 */
export const engines: Engine[] = narrowed(available)

/**
 * PGlite only, for a file whose SQL is the same on both engines: it goes through the ORM's queries
 * only, takes no locks, runs no raw SQL or migrations and nothing concurrently (docs/testing.md;
 * tools/test-engines fails a file that uses this and does any of those).
 */
export const pgliteOnly: Engine[] = narrowed(['pglite'])

/**
 * PostgreSQL only, for a file that means something only there (several server processes on one
 * database); empty without DATABASE_URL, so such a file wraps its tests in
 * `describe.skipIf(postgresOnly.length === 0)`.
 */
export const postgresOnly: Engine[] = narrowed(available.filter((engine) => engine === 'postgres'))

export interface TestDatabase extends Database {
  /** Connection string of the PostgreSQL database (postgres engine only), for a second process. */
  url?: string
}

/** A fresh, migrated, empty database: PGlite from the run's snapshot, PostgreSQL from the template. */
export async function createTestDatabase(
  engine: Engine,
  opts: { poolSize?: number } = {},
): Promise<TestDatabase> {
  if (engine === 'pglite') {
    if (!inject('pgliteSnapshot'))
      throw new Error('a PGlite test database in a run with TEST_ENGINE=postgres')
    const blob = new Blob([readFileSync(inject('pgliteSnapshot'))])
    const client = new PGlite('memory://', { ...pgliteOptions(), loadDataDir: blob })
    return openPglite(client, { migrate: false })
  }
  const base = pgTestUrl()
  const template = inject('pgTemplate')
  if (!base || !template) throw new Error('PostgreSQL tests need DATABASE_URL')
  const name = `stablecart_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: base })
  await admin.connect()
  try {
    // Two files copying one template at the same moment can collide; try again briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`create database ${name} template ${template}`)
        break
      } catch (error) {
        if (attempt >= 20) throw error
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200))
      }
    }
  } finally {
    await admin.end()
  }
  const url = new URL(base)
  url.pathname = `/${name}`
  const database = await openPostgres(url.toString(), { migrate: false, max: opts.poolSize ?? 10 })
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close()
      const dropper = new pg.Client({ connectionString: base })
      await dropper.connect()
      await dropper.query(`drop database if exists ${name} with (force)`).catch(() => {})
      await dropper.end()
    },
  }
}
