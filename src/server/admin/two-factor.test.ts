import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { adminRecoveryCodes, adminUsers } from '../db/schema'
import { ensureFirstAdmin, SESSION_COOKIE } from './admin-auth'
import { matchTotp, resetTwoFactor, totpAt } from './two-factor'

const PASSWORD = 'first-admin-password'
const now = () => Math.floor(Date.now() / 1000)

describe('TOTP arithmetic', () => {
  // RFC 6238 appendix B, SHA-1 rows: the ASCII secret "12345678901234567890", 8 digits.
  const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('RFC 6238 test vector at T=%i is %s', (t, expected) => {
    expect(totpAt(rfcSecret, t, 8)).toBe(expected)
    // Six digits are the last six of the same truncation.
    expect(totpAt(rfcSecret, t)).toBe(expected.slice(2))
  })

  it('accepts one step of drift either way, not two, and never a step at or before the last one', () => {
    const t = 1_700_000_010
    const code = totpAt(rfcSecret, t)
    const step = Math.floor(t / 30)
    expect(matchTotp(rfcSecret, code, { now: t * 1000 })).toBe(step)
    expect(matchTotp(rfcSecret, code, { now: (t + 30) * 1000 })).toBe(step)
    expect(matchTotp(rfcSecret, code, { now: (t - 30) * 1000 })).toBe(step)
    expect(matchTotp(rfcSecret, code, { now: (t + 60) * 1000 })).toBeNull()
    expect(matchTotp(rfcSecret, code, { now: t * 1000, afterStep: step })).toBeNull()
    expect(matchTotp(rfcSecret, code, { now: t * 1000, afterStep: step - 1 })).toBe(step)
    expect(matchTotp(rfcSecret, 'abcdef', { now: t * 1000 })).toBeNull()
  })
})

function cookieOf(headers: Record<string, unknown>): string {
  const raw = headers['set-cookie']
  const list = Array.isArray(raw) ? raw : [String(raw)]
  const line = list.find((c) => c.startsWith(`${SESSION_COOKIE}=`))
  if (!line) throw new Error('no session cookie')
  return line.split(';')[0] as string
}

describe.each(engines)('two-factor login on %s', (engine) => {
  let t: TestApp
  let cookie: string
  let secret: string
  let recovery: string[]

  const login = (payload: Record<string, unknown>, ip = '10.1.1.1') =>
    t.app.inject({
      method: 'POST',
      url: '/rpc/secure_admin_login',
      payload: { p_username: 'admin', p_password: PASSWORD, ...payload },
      remoteAddress: ip,
    })

  beforeAll(async () => {
    t = await createTestApp(engine, { ADMIN_PASSWORD: PASSWORD })
    await ensureFirstAdmin(t.database.db, t.env)
    const res = await login({})
    expect(res.json()).toMatchObject({ success: true })
    cookie = cookieOf(res.headers)
  })
  afterAll(() => t.close())

  it('a second session cannot switch it on without the password: the owner keeps the account', async () => {
    const attacker = cookieOf((await login({}, '10.9.9.9')).headers)
    const begun = await rpc(t.app, 'secure_admin_2fa_begin', {}, { cookie: attacker })
    expect(begun.body).toMatchObject({ success: true })
    const code = totpAt(begun.body.secret as string, now())

    const noPassword = await rpc(t.app, 'secure_admin_2fa_enable', { p_code: code }, { cookie: attacker })
    expect(noPassword.status).toBe(400)
    expect(String(noPassword.body.error)).toMatch(/p_password/)
    const wrongPassword = await rpc(
      t.app,
      'secure_admin_2fa_enable',
      { p_password: 'not-the-password', p_code: code },
      { cookie: attacker },
    )
    expect(wrongPassword.body).toEqual({ success: false, error: 'Current password is incorrect' })

    // Nothing changed: the owner's session still works and the password alone still logs in.
    const [user] = await t.database.db.select().from(adminUsers).where(eq(adminUsers.username, 'admin'))
    expect(user?.totpSecret).toBeNull()
    expect((await rpc(t.app, 'secure_admin_2fa_status', {}, { cookie })).body).toMatchObject({
      success: true,
      enabled: false,
    })
    expect((await login({})).json()).toMatchObject({ success: true })
    await rpc(t.app, 'secure_admin_logout', {}, { cookie: attacker })
  })

  it('is set up with a QR-code URI and a confirming code; recovery codes are shown once and stored hashed', async () => {
    const other = cookieOf((await login({}, '10.1.1.2')).headers)
    expect((await rpc(t.app, 'secure_admin_2fa_status', {}, { cookie })).body).toEqual({
      success: true,
      enabled: false,
      recovery_codes_left: 0,
    })
    const begun = await rpc(t.app, 'secure_admin_2fa_begin', {}, { cookie })
    expect(begun.body).toMatchObject({ success: true })
    secret = begun.body.secret as string
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    const uri = new URL(begun.body.otpauth_uri as string)
    expect(uri.protocol).toBe('otpauth:')
    expect(uri.searchParams.get('secret')).toBe(secret)

    // A wrong code leaves it off.
    const wrongCode = totpAt(secret, now() + 300)
    expect(
      (await rpc(t.app, 'secure_admin_2fa_enable', { p_password: PASSWORD, p_code: wrongCode }, { cookie }))
        .body,
    ).toEqual({ success: false, error: 'Invalid authentication code' })
    const enabled = await rpc(
      t.app,
      'secure_admin_2fa_enable',
      { p_password: PASSWORD, p_code: totpAt(secret, now()) },
      { cookie },
    )
    expect(enabled.body).toMatchObject({ success: true })
    // The session that switched it on stays; every other one ends.
    expect((await rpc(t.app, 'secure_admin_2fa_status', {}, { cookie: other })).status).toBe(401)
    recovery = enabled.body.recovery_codes as string[]
    expect(recovery).toHaveLength(10)
    expect(new Set(recovery).size).toBe(10)
    const stored = await t.database.db.select().from(adminRecoveryCodes)
    expect(stored).toHaveLength(10)
    for (const code of recovery) {
      expect(stored.some((row) => row.codeHash.includes(code.replace('-', '')))).toBe(false)
    }
    expect((await rpc(t.app, 'secure_admin_2fa_status', {}, { cookie })).body).toEqual({
      success: true,
      enabled: true,
      recovery_codes_left: 10,
    })
  })

  it('login then asks for the code after the password, and a used code cannot be replayed', async () => {
    const wrongPassword = await login({ p_password: 'not-it', p_code: totpAt(secret, now()) })
    expect(wrongPassword.json()).toEqual({ success: false, error: 'Invalid credentials' })

    const passwordOnly = await login({})
    expect(passwordOnly.json()).toMatchObject({ success: false, two_factor_required: true })
    expect(passwordOnly.headers['set-cookie']).toBeUndefined()

    // The code the setup used is spent already: its step is the last accepted one.
    const [user] = await t.database.db.select().from(adminUsers).where(eq(adminUsers.username, 'admin'))
    const spentCode = totpAt(secret, user!.totpLastStep! * 30)
    expect((await login({ p_code: spentCode })).json()).toMatchObject({
      success: false,
      error: 'Invalid authentication code',
    })

    const next = totpAt(secret, now() + 30)
    const ok = await login({ p_code: next })
    expect(ok.json()).toMatchObject({ success: true })
    cookie = cookieOf(ok.headers)
    expect((await login({ p_code: next })).json()).toMatchObject({
      success: false,
      two_factor_required: true,
    })
  })

  it('a recovery code logs in once', async () => {
    const code = recovery[0]!.toUpperCase()
    expect((await login({ p_code: code })).json()).toMatchObject({ success: true })
    expect((await login({ p_code: code })).json()).toMatchObject({
      success: false,
      error: 'Invalid authentication code',
    })
    expect((await rpc(t.app, 'secure_admin_2fa_status', {}, { cookie })).body).toMatchObject({
      recovery_codes_left: 9,
    })
  })

  it('codes are rate-limited per account like passwords: five wrong ones from five addresses lock the sixth', async () => {
    await t.database.db.execute(`delete from login_attempts`)
    for (let i = 0; i < 5; i++) {
      const res = await login({ p_code: '000000' }, `10.2.0.${i + 1}`)
      expect(res.json()).toMatchObject({ success: false, two_factor_required: true })
    }
    const locked = await login({ p_code: recovery[1]! }, '10.2.0.99')
    expect(locked.statusCode).toBe(429)
    expect(locked.headers['retry-after']).toBeDefined()
    // Unlock for the next test, as the window passing would.
    await t.database.db.execute(`delete from login_attempts`)
  })

  it('switching off needs the password and a code; admin:reset-2fa switches it off from the server', async () => {
    const noPassword = await rpc(
      t.app,
      'secure_admin_2fa_disable',
      { p_password: 'wrong', p_code: recovery[2]! },
      { cookie },
    )
    expect(noPassword.body).toEqual({ success: false, error: 'Current password is incorrect' })
    const noCode = await rpc(
      t.app,
      'secure_admin_2fa_disable',
      { p_password: PASSWORD, p_code: '000000' },
      { cookie },
    )
    expect(noCode.body).toEqual({ success: false, error: 'Invalid authentication code' })
    const off = await rpc(
      t.app,
      'secure_admin_2fa_disable',
      { p_password: PASSWORD, p_code: recovery[2]! },
      { cookie },
    )
    expect(off.body).toEqual({ success: true })
    expect((await login({})).json()).toMatchObject({ success: true })

    // On again, then reset from the command line.
    const begun = await rpc(t.app, 'secure_admin_2fa_begin', {}, { cookie })
    const again = await rpc(
      t.app,
      'secure_admin_2fa_enable',
      { p_password: PASSWORD, p_code: totpAt(begun.body.secret as string, now()) },
      { cookie },
    )
    expect(again.body).toMatchObject({ success: true, recovery_codes: expect.any(Array) })
    expect((await login({})).json()).toMatchObject({ two_factor_required: true })
    expect(await resetTwoFactor(t.database.db, 'admin')).toBe(1)
    expect((await login({})).json()).toMatchObject({ success: true })
    expect(await t.database.db.select().from(adminRecoveryCodes)).toHaveLength(0)
  })

  it('a malformed code is a 400 with a message', async () => {
    const res = await login({ p_code: 'x'.repeat(100) })
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toMatch(/p_code/)
  })
})
