import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { spawnAnvil } from '../../../tests/support/evm/anvil'
import { startSmtp } from '../../../tests/support/smtp-peer'
import { adminSession, createTestApp, rpc } from '../../../tests/support/test-app'
import { createTestDatabase, engines, type TestDatabase } from '../../../tests/support/test-db'
import { createDevchain } from '../../../tools/devchain/devchain'
import type { Devchain } from '../../../tools/devchain/types'
import type { SetupCheck, SetupCheckId } from '../../shared/setup-check'
import { hashPassword } from '../admin/passwords'
import { commandChains } from '../chains/families'
import { adminUsers } from '../db/schema'
import { demoWalletAddresses } from '../db/seed'
import { type Env, parseEnv } from '../env'
import { loadSettings, saveSettings } from '../settings/settings'
import { addWalletAddresses, removeWalletAddresses } from '../wallets/wallets.repo'
import { type DoctorDeps, runSetupChecks } from './doctor'
import { describeCheck } from './doctor-text'
import { reportWithTestMail } from './setup.routes'

// Each check of the production self-check (decision 057) made to fail, then to pass, against real
// peers: the devchain for the chains and the clock, a local SMTP peer, local HTTP(S) servers for
// PUBLIC_URL, files for backups, admin rows for the password and two-factor login.

const STRONG = 'a-long-and-unusual-passphrase-41'

const chainsOf = (env: Env) => commandChains(env)

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  )
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()))

describe.each(engines)('the self-check on %s', (engine) => {
  let database: TestDatabase
  let chain: Devchain
  let dir: string
  let env: Env

  const envOf = (over: Record<string, string> = {}) =>
    parseEnv({
      DATA_DIR: join(dir, 'data'),
      BACKUP_DIR: join(dir, 'backups'),
      TRON_API_URL: chain.url,
      TRON_API_KEY: 'a-test-key',
      PRICE_SOURCE: 'fixed:0.25',
      ...over,
    })

  const deps = async (over: Partial<DoctorDeps> = {}): Promise<DoctorDeps> => ({
    db: database.db,
    env,
    chains: (await chainsOf(env)).enabled(),
    ...over,
  })

  const check = async (id: SetupCheckId, over: Partial<DoctorDeps> = {}): Promise<SetupCheck> => {
    const found = (await runSetupChecks(await deps(over))).checks.find((c) => c.id === id)
    if (!found) throw new Error(`no ${id} check in the report`)
    return found
  }

  beforeAll(async () => {
    database = await createTestDatabase(engine)
    chain = await createDevchain({ autoMine: false, blockIntervalMs: 100, solidifyLag: 5 })
    chain.mine(10)
    dir = mkdtempSync(join(tmpdir(), 'stablecart-doctor-'))
  })

  afterAll(async () => {
    await chain.close()
    await database.close()
    rmSync(dir, { recursive: true, force: true })
  })

  beforeEach(async () => {
    env = envOf()
    await database.db.delete(adminUsers)
    await database.db
      .insert(adminUsers)
      .values({ username: 'owner', passwordHash: await hashPassword(STRONG), totpSecret: 'JBSWY3DPEHPK3PXP' })
  })

  it('fails on demo wallet addresses in the pool, and passes once they are gone', async () => {
    await addWalletAddresses(database.db, demoWalletAddresses.slice(0, 2))
    const report = await runSetupChecks(await deps())
    expect(report.checks.find((c) => c.id === 'demo_wallets')).toMatchObject({
      state: 'fail',
      facts: { count: 2 },
    })
    expect(report.failing).toBe(true)
    // Removed as the Wallets tab removes them (the row stays, marked removed).
    await removeWalletAddresses(database.db, demoWalletAddresses)
    expect(await check('demo_wallets')).toMatchObject({ state: 'ok', reason: 'none' })
  })

  it('warns on a public provider used without a key, and passes with one', async () => {
    env = envOf({ TRON_API_URL: 'https://api.trongrid.io', TRON_API_KEY: '' })
    // No chain is asked (there is no internet here): only the configuration is read.
    const keyless = await check('provider_key', { chains: [] })
    expect(keyless).toMatchObject({ state: 'warn', reason: 'no_key', chain: null })
    expect(describeCheck(keyless)).toEqual({
      title: 'Chain provider key',
      finding: 'api.trongrid.io is used without an API key: it answers keyless clients slowly and rarely.',
      fix: 'Set TRON_API_KEY (a free TronGrid key is enough for a small shop).',
    })
    env = envOf({ TRON_API_URL: 'https://api.trongrid.io' })
    expect(await check('provider_key', { chains: [] })).toMatchObject({ state: 'ok' })
  })

  it("fails when a key's day is spent, and passes with another key", async () => {
    env = envOf({ TRON_API_PER_DAY: '6' })
    const chains = (await chainsOf(env)).enabled()
    const states: string[] = []
    for (let i = 0; i < 12 && states.at(-1) !== 'fail'; i++)
      states.push((await check('provider_key', { chains })).state)
    expect(states[0]).toBe('ok')
    expect(states.at(-1)).toBe('fail')
    const spent = await check('provider_key', { chains })
    expect(spent).toMatchObject({ reason: 'day_spent', chain: 'tron', facts: { perDay: 6 } })
    expect(describeCheck(spent).fix).toBe(
      'Add another key or provider (TRON_API_KEY with several keys, TRON_PROVIDER_<n>_*), or raise the plan.',
    )
    env = envOf({ TRON_API_PER_DAY: '6', TRON_API_KEY: 'first-key,second-key' })
    const more = (await chainsOf(env)).enabled()
    expect(await check('provider_key', { chains: more })).toMatchObject({
      state: 'ok',
      facts: { perDay: 12 },
    })
  })

  it("names the settings of the chain whose day is spent: an EVM chain's, not TRON's", async () => {
    const anvil = await spawnAnvil({ chainId: 56 })
    try {
      env = envOf({
        EVM_BSC_ENABLED: 'true',
        EVM_BSC_PROVIDER_1_URL: anvil.url,
        EVM_BSC_PROVIDER_1_PER_DAY: '4',
      })
      const chains = (await chainsOf(env)).enabled()
      let spent = await check('provider_key', { chains })
      for (let i = 0; i < 12 && spent.state !== 'fail'; i++) spent = await check('provider_key', { chains })
      expect(spent).toMatchObject({ state: 'fail', reason: 'day_spent', chain: 'bsc', facts: { perDay: 4 } })
      expect(describeCheck(spent).fix).toBe(
        'Add another key or provider (EVM_BSC_PROVIDER_<n>_KEYS with several keys, EVM_BSC_PROVIDER_<n>_*), or raise the plan.',
      )
    } finally {
      await anvil.stop()
    }
  })

  it('fails on a chain that does not answer or is not current, and passes once it is', async () => {
    chain.setFault('http503')
    expect(await check('chain')).toMatchObject({ state: 'fail', reason: 'unreachable', chain: 'tron' })
    chain.setFault('none')
    expect(await check('chain')).toMatchObject({ state: 'ok', reason: 'current', chain: 'tron' })
    // The newest final block an hour older than the clock: the provider is stuck (or the clock ahead).
    const later = Date.now() + 3_600_000
    expect(await check('chain', { now: () => later })).toMatchObject({ state: 'fail', reason: 'stale' })
  })

  it("fails when the server's clock runs behind the chains' block time, and passes in step", async () => {
    const behind = Date.now() - 5 * 60_000
    expect(await check('clock', { now: () => behind })).toMatchObject({ state: 'fail', reason: 'behind' })
    expect((await check('clock', { now: () => behind })).facts.seconds).toBeGreaterThan(200)
    expect(await check('clock')).toMatchObject({ state: 'ok', reason: 'in_step' })
  })

  it('sends a test mail to the operator through SMTP: fails on a dead server, passes on a real peer', async () => {
    expect(await check('mail')).toMatchObject({ state: 'warn', reason: 'no_smtp' })
    await saveSettings(database.db, {
      ...(await loadSettings(database.db)),
      operatorEmail: 'owner@example.com',
    })
    const dead = createHttpServer()
    const deadPort = await listen(dead)
    await close(dead)
    env = envOf({ SMTP_URL: `smtp://127.0.0.1:${deadPort}` })
    const failed = await reportWithTestMail({ db: database.db, env, chains: await chainsOf(env) }, true)
    expect(failed.checks.find((c) => c.id === 'mail')).toMatchObject({ state: 'fail', reason: 'send_failed' })
    expect(failed.failing).toBe(true)
    const smtp = await startSmtp()
    try {
      env = envOf({ SMTP_URL: smtp.url })
      const sent = await reportWithTestMail({ db: database.db, env, chains: await chainsOf(env) }, true)
      expect(sent.checks.find((c) => c.id === 'mail')).toMatchObject({
        state: 'ok',
        reason: 'sent',
        facts: { to: 'owner@example.com' },
      })
      expect(smtp.received).toHaveLength(1)
      expect(smtp.received[0]?.toString()).toContain('To: owner@example.com')
    } finally {
      await smtp.close()
    }
  })

  it('warns on PUBLIC_URL unset, unreachable or plain http, and passes on https that answers', async () => {
    expect(await check('public_url')).toMatchObject({ state: 'warn', reason: 'unset' })
    const health = (_req: unknown, res: import('node:http').ServerResponse) => res.end('{"status":"ok"}')
    const plain = createHttpServer(health)
    const plainPort = await listen(plain)
    env = envOf({ PUBLIC_URL: `http://127.0.0.1:${plainPort}` })
    expect(await check('public_url')).toMatchObject({ state: 'warn', reason: 'not_https' })
    await close(plain)
    expect(await check('public_url')).toMatchObject({ state: 'warn', reason: 'unreachable' })
    // A real TLS server with a certificate made for it; the check's fetch trusts that certificate.
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    )
    const ca = readFileSync(join(dir, 'cert.pem'))
    const tls = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: ca }, health)
    const tlsPort = await listen(tls)
    const trusting = ((url: string) =>
      new Promise((resolve, reject) => {
        httpsRequest(url, { ca }, (res) => {
          res.resume()
          resolve({ ok: (res.statusCode ?? 0) < 300, status: res.statusCode })
        })
          .on('error', reject)
          .end()
      })) as unknown as typeof fetch
    try {
      env = envOf({ PUBLIC_URL: `https://localhost:${tlsPort}` })
      expect(await check('public_url', { fetch: trusting })).toMatchObject({
        state: 'ok',
        reason: 'reachable',
      })
    } finally {
      await close(tls)
    }
  })

  it('warns with no backup or an old one, and passes with a recent one', async () => {
    expect(await check('backups')).toMatchObject({ state: 'warn', reason: 'none' })
    mkdirSync(join(dir, 'backups'), { recursive: true })
    const file = join(dir, 'backups', 'stablecart-pglite-20261101T000000Z.tar.gz')
    writeFileSync(file, 'a backup')
    const twoDaysAgo = new Date(Date.now() - 48 * 3_600_000)
    utimesSync(file, twoDaysAgo, twoDaysAgo)
    expect(await check('backups')).toMatchObject({
      state: 'warn',
      reason: 'old',
      facts: { hours: 48, maxHours: 26 },
    })
    const now = new Date()
    utimesSync(file, now, now)
    expect(await check('backups')).toMatchObject({ state: 'ok', reason: 'recent', facts: { hours: 0 } })
  })

  it('fails on a common admin password, warns on the one from the environment, passes on its own', async () => {
    await database.db.update(adminUsers).set({ passwordHash: await hashPassword('admin123') })
    expect(await check('admin_password')).toMatchObject({
      state: 'fail',
      reason: 'weak',
      facts: { admins: 'owner' },
    })
    await database.db.update(adminUsers).set({ passwordHash: await hashPassword(STRONG) })
    env = envOf({ ADMIN_PASSWORD: STRONG })
    expect(await check('admin_password')).toMatchObject({ state: 'warn', reason: 'from_env' })
    env = envOf()
    expect(await check('admin_password')).toMatchObject({ state: 'ok', reason: 'own' })
  })

  it('warns on an admin without two-factor login, and passes once every admin has it', async () => {
    await database.db
      .insert(adminUsers)
      .values({ username: 'helper', passwordHash: await hashPassword(STRONG) })
    expect(await check('two_factor')).toMatchObject({
      state: 'warn',
      reason: 'off',
      facts: { admins: 'helper' },
    })
    await database.db.update(adminUsers).set({ totpSecret: 'JBSWY3DPEHPK3PXP' })
    expect(await check('two_factor')).toMatchObject({ state: 'ok', reason: 'on' })
  })
})

describe.each(engines)('the Setup card and the running shop on %s', (engine) => {
  // Builds a whole app and logs in: slow on a busy machine.
  it('answers the admin with the report and refuses everyone else', { timeout: 120_000 }, async () => {
    const t = await createTestApp(engine, { ADMIN_PASSWORD: STRONG })
    try {
      await addWalletAddresses(t.database.db, [demoWalletAddresses[0] as string])
      expect((await rpc(t.app, 'secure_fetch_setup_report')).status).toBe(401)
      const headers = await adminSession(t)
      const answer = await rpc(t.app, 'secure_fetch_setup_report', {}, headers)
      expect(answer.status).toBe(200)
      const checks = answer.body.checks as SetupCheck[]
      expect(checks.map((c) => c.id)).toEqual(
        expect.arrayContaining(['demo_wallets', 'chain', 'clock', 'mail', 'backups']),
      )
      expect(checks.find((c) => c.id === 'demo_wallets')).toMatchObject({
        state: 'fail',
        facts: { count: 1 },
      })
      expect(answer.body.failing).toBe(true)
      const mail = await rpc(t.app, 'secure_send_setup_test_mail', {}, headers)
      expect(mail.body).toMatchObject({ success: false, to: null })
    } finally {
      await t.close()
    }
  })
})
