import { randomBytes } from 'node:crypto'
import pg from 'pg'

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
