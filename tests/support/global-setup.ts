import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { openPglite, openPostgres } from '../../src/server/db/client'
import { pgliteOptions } from '../../src/server/db/pglite-options'
import { pgTestUrl } from './pg-url'

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string
    pgTemplate: string | null
  }
}

/**
 * Migrates once per run: a PGlite snapshot every test file loads, and a PostgreSQL template database.
 * A run on PGlite alone (TEST_ENGINE=pglite, see test-db.ts) prepares no template; a run on
 * PostgreSQL alone still makes the snapshot (a few seconds), for the few tests that open a PGlite
 * database by name whatever the engine (the built web app, the metrics endpoint, the first admin).
 */
export default async function setup(project: TestProject) {
  const only = process.env.TEST_ENGINE?.trim()
  const dir = join('.tmp', 'vitest')
  mkdirSync(dir, { recursive: true })
  const client = new PGlite(pgliteOptions())
  const database = await openPglite(client)
  const dump = await client.dumpDataDir('none')
  const snapshot = join(dir, `pglite-snapshot-${process.pid}.tar`)
  writeFileSync(snapshot, Buffer.from(await dump.arrayBuffer()))
  await database.close()
  project.provide('pgliteSnapshot', snapshot)

  const url = pgTestUrl()
  if (!url || only === 'pglite') {
    project.provide('pgTemplate', null)
    return
  }
  const template = `stablecart_tpl_${process.pid}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`drop database if exists ${template}`)
  await admin.query(`create database ${template}`)
  const templateUrl = new URL(url)
  templateUrl.pathname = `/${template}`
  const migrated = await openPostgres(templateUrl.toString(), { max: 1 })
  await migrated.close()
  project.provide('pgTemplate', template)
  return async () => {
    await admin.query(`drop database if exists ${template} with (force)`).catch(() => {})
    await admin.end()
  }
}
