import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServerIfStale } from '../../tests/support/built-server'
import { testAddresses } from '../../tests/support/test-addresses'

// The operator's CLI as the operator runs it: the built dist/server/cli.js (what `npm run
// wallets:add` and the others run), a process, its arguments, its standard input. CI builds before
// the tests; run alone, this file builds the server bundle first when it is missing or stale.
beforeAll(buildServerIfStale, 300_000)

function cli(args: string[], dataDir: string, stdin?: string, env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, ['dist/server/cli.js', ...args], {
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (d) => {
      out += String(d)
    })
    child.stderr.on('data', (d) => {
      out += String(d)
    })
    child.on('exit', (code) => resolve({ code, out }))
    child.stdin.end(stdin ?? '')
  })
}

describe('npm run wallets:add', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stablecart-cli-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('takes any number of addresses from standard input or a file, and says what it did', async () => {
    const many = testAddresses(5000, 'cli')
    const fromStdin = await cli(['wallets:add'], dir, `${many.slice(0, 4000).join('\n')}\n`)
    expect(fromStdin.out).toContain('Added 4000 wallet address(es); 0 already present.')
    expect(fromStdin.code).toBe(0)

    const file = join(dir, 'addresses.txt')
    writeFileSync(file, many.join('\r\n'))
    const fromFile = await cli(['wallets:add', '--file', file], dir)
    expect(fromFile.out).toContain('Added 1000 wallet address(es); 4000 already present.')

    const bad = await cli(['wallets:add', '-'], dir, 'not-an-address\n')
    expect(bad.code).toBe(1)
    expect(bad.out).toContain('Invalid wallet address format: not-an-address')

    const missing = await cli(['wallets:add', '--file', join(dir, 'nope.txt')], dir)
    expect(missing.code).toBe(1)
    expect(missing.out).toMatch(/Cannot read .*nope\.txt: ENOENT/)
  }, 240_000)
})

describe('npm run follower:reset', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stablecart-cli-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('refuses a chain or block it does not know, and a chain the shop has not followed', async () => {
    for (const args of [
      ['cosmos', '5'],
      ['bsc', '12abc'],
    ]) {
      const bad = await cli(['follower:reset', ...args], dir)
      expect(bad.code, args.join(' ')).toBe(1)
      expect(bad.out).toContain('Usage: follower:reset <chain> <block>')
    }
    const never = await cli(['follower:reset', 'bsc', '100'], dir)
    expect(never.code).toBe(1)
    expect(never.out).toContain('The shop has not followed bsc yet')
  }, 240_000)
})

describe('npm run reconcile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stablecart-cli-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  // BNB Smart Chain enabled; its provider is never asked with --ledger-only.
  const bsc = { EVM_BSC_ENABLED: 'true', EVM_BSC_PROVIDER_1_URL: 'http://127.0.0.1:9' }

  it('reconciles one chain a run: TRON by default, another with --chain, and names a chain it cannot take', async () => {
    const tron = await cli(['reconcile', '--ledger-only'], dir)
    expect(tron.out).toContain('Reconciliation of TRON')
    expect(tron.out).toContain('TIES OUT')
    expect(tron.code).toBe(0)

    const evm = await cli(['reconcile', '--chain', 'bsc', '--ledger-only'], dir, '', bsc)
    expect(evm.out).toContain('Reconciliation of BNB Smart Chain')
    expect(evm.code).toBe(0)

    const disabled = await cli(['reconcile', '--chain', 'polygon', '--ledger-only'], dir, '', bsc)
    expect(disabled.out).toContain('--chain polygon is not enabled in this shop (enabled: tron, bsc)')
    expect(disabled.code).toBe(1)

    const unknown = await cli(['reconcile', '--chain', 'cosmos'], dir)
    expect(unknown.out).toContain('--chain needs one of tron, ethereum, bsc, polygon, arbitrum, base')
    expect(unknown.code).toBe(1)

    const [tronAddress] = testAddresses(1, 'cli-reconcile')
    const wrong = await cli(
      ['reconcile', '--chain', 'bsc', '--ledger-only', tronAddress as string],
      dir,
      '',
      bsc,
    )
    expect(wrong.out).toContain(`${tronAddress} is not a BNB Smart Chain address`)
    expect(wrong.code).toBe(1)
  }, 300_000)
})
