import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { afterAll, describe, expect, it } from 'vitest'
import { unpackCluster } from './cluster-template'
import { pgliteOptions } from './pglite-options'

describe('the empty cluster a first start unpacks', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stablecart-cluster-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  // initdb (the build's part) takes a few seconds alone, far more on a busy machine.
  it('unpacks into a database PGlite opens without initdb, with its 8 MB buffer pool; refuses a folder that holds anything', {
    timeout: 120_000,
  }, async () => {
    // What the build does (scripts/build-server.mjs).
    const source = new PGlite()
    await source.waitReady
    const tarball = join(dir, 'cluster.tar.gz')
    writeFileSync(tarball, Buffer.from(await (await source.dumpDataDir('gzip')).arrayBuffer()))
    await source.close()

    const dataDir = join(dir, 'data')
    mkdirSync(dataDir)
    expect(unpackCluster(tarball, dataDir)).toBe(true)
    expect(readdirSync(dir).sort()).toEqual(['cluster.tar.gz', 'data'])
    const db = new PGlite(dataDir, pgliteOptions())
    const result = await db.query<{ answer: number }>('select 6 * 7 as answer')
    expect(result.rows).toEqual([{ answer: 42 }])
    // The buffer pool every embedded database opens with: each megabyte of it stays resident once
    // touched (decision 071).
    const pool = await db.query<{ shared_buffers: string }>('show shared_buffers')
    expect(pool.rows).toEqual([{ shared_buffers: '8MB' }])
    await db.close()

    const used = join(dir, 'used')
    mkdirSync(used)
    writeFileSync(join(used, 'something'), 'kept')
    expect(unpackCluster(tarball, used)).toBe(false)
    expect(readdirSync(used)).toEqual(['something'])
  })
})
