import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { EnvError, parseEnv } from './env'

describe('parseEnv', () => {
  it('gives the documented defaults', () => {
    const env = parseEnv({})
    expect(env).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      PAYMENT_WINDOW_MINUTES: 30,
      LATE_PAYMENT_GRACE_MINUTES: 60,
      PAYMENT_TOLERANCE: 2,
      EXPLORER_MAX_RPS: 5,
      USDT_CONTRACT: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      ADMIN_ALLOWED_USER_AGENTS: [],
    })
    expect(env.DATABASE_URL).toBeUndefined()
  })

  it('lists every bad key by name', () => {
    let error: unknown
    try {
      parseEnv({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SMTP_URL: 'http://x' })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(EnvError)
    const message = (error as Error).message
    expect(message).toMatch(/PORT/)
    expect(message).toMatch(/DATABASE_URL/)
    expect(message).toMatch(/SMTP_URL/)
  })

  it('splits the admin user-agent allow-list on ||', () => {
    expect(
      parseEnv({ ADMIN_ALLOWED_USER_AGENTS: 'Firefox/ || Chrome/120' }).ADMIN_ALLOWED_USER_AGENTS,
    ).toEqual(['Firefox/', 'Chrome/120'])
  })

  it('stops the server at start-up with a message naming the variable', () => {
    for (const [key, value] of [
      ['PORT', '99999'],
      ['DATABASE_URL', 'not-a-url'],
    ]) {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
        env: { ...process.env, DATABASE_URL: '', [key as string]: value },
        encoding: 'utf8',
        timeout: 20_000,
      })
      expect(run.status).toBe(1)
      expect(run.stderr).toContain(key)
    }
  })
})

describe('parseEnv: operations settings', () => {
  it('reads TRUST_PROXY as off, every hop, a hop count or a list of proxies', () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(false)
    expect(parseEnv({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false)
    expect(parseEnv({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true)
    expect(parseEnv({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1)
    expect(parseEnv({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8, ::1' }).TRUST_PROXY).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
    ])
    expect(() => parseEnv({ TRUST_PROXY: 'nginx' })).toThrow(/TRUST_PROXY/)
  })

  it('keeps metrics off without METRICS_TOKEN and refuses a short one', () => {
    expect(parseEnv({}).METRICS_TOKEN).toBeUndefined()
    expect(parseEnv({ METRICS_TOKEN: '' }).METRICS_TOKEN).toBeUndefined()
    expect(parseEnv({ METRICS_TOKEN: 'a'.repeat(16) }).METRICS_TOKEN).toBe('a'.repeat(16))
    expect(() => parseEnv({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/)
  })

  it('logs requests slower than LOG_SLOW_REQUEST_MS, default one second', () => {
    expect(parseEnv({}).LOG_SLOW_REQUEST_MS).toBe(1000)
    expect(() => parseEnv({ LOG_SLOW_REQUEST_MS: '0' })).toThrow(/LOG_SLOW_REQUEST_MS/)
  })
})
