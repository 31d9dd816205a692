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

  it('TRON_API_URL / TRON_API_KEY are the one-provider case; several keys separated by commas', () => {
    // As .env.example leaves it.
    expect(parseEnv({ TRON_API_PER_DAY: '', TRON_API_KEY: '' }).TRON_PROVIDERS[0]?.perDay).toBeNull()
    expect(parseEnv({}).TRON_PROVIDERS).toEqual([
      { name: 'api.trongrid.io', url: 'https://api.trongrid.io', keys: [], rps: 5, perDay: null },
    ])
    const env = parseEnv({
      TRON_API_URL: 'https://api.trongrid.io',
      TRON_API_KEY: 'k1, k2',
      TRON_API_PER_DAY: '100000',
      EXPLORER_MAX_RPS: '10',
    })
    expect(env.TRON_PROVIDERS).toEqual([
      {
        name: 'api.trongrid.io',
        url: 'https://api.trongrid.io',
        keys: ['k1', 'k2'],
        rps: 10,
        perDay: 100_000,
      },
    ])
  })

  it("a TRON provider's key goes in a header: any printable text, which an EVM chain's URL key may not hold", () => {
    const env = parseEnv({
      TRON_PROVIDER_1_URL: 'https://api.trongrid.io',
      TRON_PROVIDER_1_KEYS: 'a+b/c=, d@e',
      EVM_BSC_PROVIDER_1_URL: 'https://rpc.example/v1/{key}',
      EVM_BSC_PROVIDER_1_KEYS: 'a-b.c_d~e',
    })
    expect(env.TRON_PROVIDERS[0]?.keys).toEqual(['a+b/c=', 'd@e'])
    expect(env.EVM_CHAINS.find((c) => c.spec.key === 'bsc')?.providers[0]?.keys).toEqual(['a-b.c_d~e'])
    expect(() =>
      parseEnv({ EVM_BSC_PROVIDER_1_URL: 'https://rpc.example/v1/{key}', EVM_BSC_PROVIDER_1_KEYS: 'a+b/c=' }),
    ).toThrow(/EVM_BSC_PROVIDER_1_KEYS: keys are letters, digits and \. _ ~ - only/)
  })

  it('TRON_PROVIDER_<n>_* list providers in order, each with its keys and limits', () => {
    const env = parseEnv({
      TRON_PROVIDER_1_URL: 'http://10.0.0.5:8090',
      TRON_PROVIDER_1_NAME: 'own node',
      TRON_PROVIDER_2_URL: 'https://api.trongrid.io',
      TRON_PROVIDER_2_KEYS: 'a,b',
      TRON_PROVIDER_2_RPS: '15',
      TRON_PROVIDER_2_PER_DAY: '100000',
      TRON_API_URL: 'https://ignored.example',
    })
    expect(env.TRON_PROVIDERS).toEqual([
      { name: 'own node', url: 'http://10.0.0.5:8090', keys: [], rps: 5, perDay: null },
      {
        name: '2: api.trongrid.io',
        url: 'https://api.trongrid.io',
        keys: ['a', 'b'],
        rps: 15,
        perDay: 100_000,
      },
    ])
  })

  it('bad provider configuration stops start-up naming the variable', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ TRON_PROVIDER_1_URL: 'ftp://x' }, /TRON_PROVIDER_1_URL: must be an http/],
      [{ TRON_PROVIDER_1_URL: 'https://a.example', TRON_PROVIDER_1_RPS: '0' }, /TRON_PROVIDER_1_RPS/],
      [
        { TRON_PROVIDER_1_URL: 'https://a.example', TRON_PROVIDER_1_PER_DAY: 'lots' },
        /TRON_PROVIDER_1_PER_DAY/,
      ],
      [
        { TRON_PROVIDER_1_URL: 'https://a.example', TRON_PROVIDER_1_KEY: 'k' },
        /TRON_PROVIDER_1_KEY: unknown setting/,
      ],
      [{ TRON_PROVIDER_2_URL: 'https://a.example' }, /TRON_PROVIDER_1_URL: missing/],
      [{ TRON_PROVIDER_1_KEYS: 'k' }, /TRON_PROVIDER_1_URL: required/],
      [
        {
          TRON_PROVIDER_1_URL: 'https://a.example',
          TRON_PROVIDER_1_NAME: 'x',
          TRON_PROVIDER_2_URL: 'https://b.example',
          TRON_PROVIDER_2_NAME: 'x',
        },
        /TRON_PROVIDER_2_NAME: "x" is used twice/,
      ],
      [{ TRON_API_PER_DAY: '-1' }, /TRON_API_PER_DAY/],
      [
        { TRON_PROVIDER_1_URL: 'https://a.example', TRON_PROVIDER_1_KEYS: 'ok,with space' },
        /TRON_PROVIDER_1_KEYS: keys are printable, without spaces/,
      ],
    ]
    for (const [source, message] of cases) {
      expect(() => parseEnv(source), JSON.stringify(source)).toThrow(message)
    }
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

  it('still reads the chain follower settings under their old SCAN_* names, with a notice', () => {
    const old = parseEnv({ SCAN_START_BLOCK: '7', SCAN_BATCH_BLOCKS: '50', SCAN_INTERVAL_MS: '200' })
    expect(old).toMatchObject({
      FOLLOWER_START_BLOCK: 7,
      FOLLOWER_BATCH_BLOCKS: 50,
      FOLLOWER_INTERVAL_MS: 200,
    })
    expect(old.NOTICES).toEqual([
      'SCAN_START_BLOCK is now called FOLLOWER_START_BLOCK; the old name still works, please rename it',
      'SCAN_BATCH_BLOCKS is now called FOLLOWER_BATCH_BLOCKS; the old name still works, please rename it',
      'SCAN_INTERVAL_MS is now called FOLLOWER_INTERVAL_MS; the old name still works, please rename it',
    ])
    const both = parseEnv({ SCAN_BATCH_BLOCKS: '50', FOLLOWER_BATCH_BLOCKS: '30' })
    expect(both.FOLLOWER_BATCH_BLOCKS).toBe(30)
    expect(both.NOTICES).toEqual([
      'SCAN_BATCH_BLOCKS is ignored: FOLLOWER_BATCH_BLOCKS is set (SCAN_BATCH_BLOCKS is its old name)',
    ])
    expect(parseEnv({}).NOTICES).toEqual([])
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
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
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
