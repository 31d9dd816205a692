import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { inject } from 'vitest'
import { type Database, openPglite, openPostgres } from '../../src/server/db/client'
import { pgliteOptions } from '../../src/server/db/pglite-options'
import { pgTestUrl } from './pg-url'

export type Engine = 'pglite' | 'postgres'

/** Every database test runs on PGlite, and on PostgreSQL too when DATABASE_URL is set. */
export const engines: Engine[] = inject('pgTemplate') ? ['pglite', 'postgres'] : ['pglite']

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
