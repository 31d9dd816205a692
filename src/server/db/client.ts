import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { packageRoot } from '../lib/paths'
import { PgliteProxy } from './pglite-proxy'
import * as schema from './schema'

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>

export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<boolean>
  close(): Promise<void>
}

export function migrationsFolder(): string {
  return join(packageRoot(), 'drizzle')
}

// Serialises migrations across processes that start at the same time on one PostgreSQL.
const MIGRATION_LOCK = 7_411_001

function wrap(db: Db, kind: Database['kind'], close: () => Promise<void>): Database {
  let closed = false
  return {
    db,
    kind,
    async ping() {
      if (closed) return false
      try {
        await db.execute(sql`select 1`)
        return true
      } catch {
        return false
      }
    },
    async close() {
      if (closed) return
      closed = true
      await close()
    },
  }
}

export async function openPglite(client: PGlite, { migrate = true } = {}): Promise<Database> {
  const db = drizzlePglite({ client, schema }) as unknown as Db
  if (migrate) await migratePglite(db as never, { migrationsFolder: migrationsFolder() })
  return wrap(db, 'pglite', () => client.close())
}

export async function openPostgres(url: string, { migrate = true, max = 10 } = {}): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max })
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => {})
  const db = drizzlePg({ client: pool, schema }) as unknown as Db
  if (migrate) {
    // The lock lives on its own connection so a pool of one can still run the migrations.
    const lockClient = new pg.Client({ connectionString: url })
    await lockClient.connect()
    try {
      await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
      await migratePg(db as never, { migrationsFolder: migrationsFolder() })
    } finally {
      await lockClient.end().catch(() => {})
    }
  }
  return wrap(db, 'postgres', () => pool.end())
}

/**
 * PostgreSQL when a URL is given, else the embedded PGlite database under dataDir, run on a worker
 * thread (pglite-proxy.ts) so its SQL and disk writes never stall the server's event loop.
 */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl)
  const dir = resolve(opts.dataDir, 'pglite')
  mkdirSync(dir, { recursive: true })
  // Drizzle's PGlite driver uses only query(), transaction() and close(), which the proxy provides.
  return openPglite(new PgliteProxy(dir) as unknown as PGlite)
}
