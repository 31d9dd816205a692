import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { loadDotEnv } from './dotenv'

const dir = mkdtempSync(join(tmpdir(), 'stablecart-dotenv-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('.env', () => {
  it('fills in unset variables; the real environment wins', () => {
    const file = join(dir, 'plain.env')
    writeFileSync(file, '# comment\nSC_TEST_REAL=from-file\nSC_TEST_NEW="from file # quoted"\n')
    process.env.SC_TEST_REAL = 'from-environment'
    delete process.env.SC_TEST_NEW
    try {
      expect(loadDotEnv(file)).toBe(file)
      expect(process.env.SC_TEST_REAL).toBe('from-environment')
      expect(process.env.SC_TEST_NEW).toBe('from file # quoted')
    } finally {
      delete process.env.SC_TEST_REAL
      delete process.env.SC_TEST_NEW
    }
  })

  it('is optional', () => {
    expect(loadDotEnv(join(dir, 'missing.env'))).toBeUndefined()
  })

  it('is read by the server at start-up from its working directory', () => {
    // PORT is bad only in the file, LOG_LEVEL is bad in the file but good in the environment:
    // the start-up error names the first and not the second.
    writeFileSync(join(dir, '.env'), 'PORT=eighty\nLOG_LEVEL=loud\n')
    const loader = pathToFileURL(resolve('node_modules/tsx/dist/loader.mjs')).href
    const run = spawnSync(process.execPath, ['--import', loader, resolve('src/server/server.ts')], {
      cwd: dir,
      env: { ...process.env, DATABASE_URL: '', PORT: undefined, LOG_LEVEL: 'info' },
      encoding: 'utf8',
      timeout: 20_000,
    })
    expect(run.status).toBe(1)
    expect(run.stderr).toContain('PORT')
    expect(run.stderr).not.toContain('LOG_LEVEL')
  })
})
