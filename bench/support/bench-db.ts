import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { openDatabase } from '../../src/server/db/client'
import { parseEnv } from '../../src/server/env'

export type Engine = 'pglite' | 'postgres'

/** A fresh database of its own on the PostgreSQL server at DATABASE_URL: its name and URL. */
export async function createBenchDatabase(): Promise<{ name: string; url: string }> {
  const name = `stablecart_bench_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(process.env.DATABASE_URL as string)
  url.pathname = `/${name}`
  return { name, url: url.toString() }
}

export async function dropBenchDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await admin.connect()
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.end()
}

/** Runs the benchmark on the engines BENCH_ENGINES names (both by default; PostgreSQL needs DATABASE_URL). */
export async function onEngines(run: (engine: Engine) => Promise<void>): Promise<void> {
  const engines = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',')
  if (engines.includes('pglite')) await run('pglite')
  if (engines.includes('postgres')) {
    if (process.env.DATABASE_URL) await run('postgres')
    else console.log('postgres  skipped: set DATABASE_URL to measure PostgreSQL too')
  }
}

/** The kept PostgreSQL database of that name, created when it does not exist yet. */
async function keptBenchDatabase(name: string): Promise<{ name: string; url: string }> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await admin.connect()
  const found = await admin.query('select 1 from pg_database where datname = $1', [name])
  if (found.rowCount === 0) await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(process.env.DATABASE_URL as string)
  url.pathname = `/${name}`
  return { name, url: url.toString() }
}

/**
 * A fresh shop database for an in-process benchmark: a data folder, and on PostgreSQL a database of
 * its own; the env parsed from settings on top of those. close() removes both (BENCH_KEEP_DB keeps
 * the PostgreSQL one). With `keepAs` (letters, digits, underscores) the data folder
 * (`<tmp>/<keepAs>`) and the PostgreSQL database (`<keepAs>`) are the same at every run and kept,
 * so a benchmark can write its rows once and measure them again later.
 */
export async function openBenchShop(kind: Engine, settings: Record<string, string>, keepAs?: string) {
  if (keepAs !== undefined && !/^[a-z0-9_]+$/.test(keepAs)) throw new Error(`bad keepAs ${keepAs}`)
  const dataDir = keepAs ? join(tmpdir(), keepAs) : mkdtempSync(join(tmpdir(), 'stablecart-bench-'))
  if (keepAs) mkdirSync(dataDir, { recursive: true })
  const created =
    kind === 'postgres' ? await (keepAs ? keptBenchDatabase(keepAs) : createBenchDatabase()) : undefined
  const env = parseEnv({
    DATA_DIR: dataDir,
    DATABASE_URL: created?.url ?? '',
    LOG_LEVEL: 'silent',
    PRICE_SOURCE: 'fixed:0.25',
    ...settings,
  })
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
  return {
    env,
    database,
    dbName: created?.name,
    async close() {
      await database.close()
      if (keepAs) return
      rmSync(dataDir, { recursive: true, force: true })
      if (created && !process.env.BENCH_KEEP_DB) await dropBenchDatabase(created.name)
    },
  }
}

/** Every order of a bench comes from one client: the checkout limits kept out of the way. */
export const unlimitedCheckouts = {
  CHECKOUT_PENDING_PER_CLIENT: '100000',
  CHECKOUT_PENDING_PER_EMAIL: '100000',
  CHECKOUT_CREATIONS_PER_MINUTE: '100000',
  CHECKOUT_HELD_PER_NETWORK: '100000',
  CHECKOUT_RESERVE_PERCENT: '0',
}
