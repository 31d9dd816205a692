import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminSession, createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { pgliteOnly } from '../../../tests/support/test-db'
import { ensureFirstAdmin } from '../admin/admin-auth'
import { loadSettings } from './settings'

const PASSWORD = 'settings-admin-password'
const TOKEN = '123456789:AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQ'
const alerts = {
  order_paid: true,
  payment_unmatched: false,
  stock_low: true,
  pool_low: true,
  mail_failing: true,
  scanner_stalled: false,
  providers_down: true,
  provider_quota: false,
  provider_set_aside: true,
}

describe.each(pgliteOnly)('settings on %s', (engine) => {
  let t: TestApp
  let cookie: string
  const admin = (name: string, payload: Record<string, unknown> = {}) => rpc(t.app, name, payload, { cookie })

  beforeAll(async () => {
    t = await createTestApp(engine, { ADMIN_PASSWORD: PASSWORD, PAYMENT_TOLERANCE: '1.5' })
    await ensureFirstAdmin(t.database.db, t.env)
    cookie = (await adminSession(t)).cookie as string
  })
  afterAll(() => t.close())

  it('a fresh install has defaults, with the tolerance from the environment shown read-only', async () => {
    expect((await admin('secure_fetch_settings')).body).toEqual({
      success: true,
      settings: {
        operator_email: null,
        telegram_chat_id: null,
        telegram_bot_token_set: false,
        alerts: Object.fromEntries(Object.keys(alerts).map((k) => [k, true])),
        low_stock_threshold: 5,
        refuse_checkouts_while_delayed: false,
        payment_tolerance_usd: 1.5,
        payment_tolerance_percent: 10,
      },
    })
  })

  it('saves to the database; the bot token is kept but never sent back, omitted keeps it, empty clears it', async () => {
    const base = {
      operator_email: 'ops@example.com',
      telegram_chat_id: '-100123',
      alerts,
      low_stock_threshold: 3,
    }
    const saved = await admin('secure_update_settings', {
      p_settings: { ...base, telegram_bot_token: TOKEN },
    })
    expect(saved.body).toMatchObject({ success: true, settings: { telegram_bot_token_set: true } })
    expect(JSON.stringify(saved.body)).not.toContain(TOKEN)
    const read = await admin('secure_fetch_settings')
    expect(JSON.stringify(read.body)).not.toContain(TOKEN)
    expect(read.body.settings).toMatchObject({ ...base, telegram_bot_token_set: true })
    expect((await loadSettings(t.database.db)).telegramBotToken).toBe(TOKEN)

    await admin('secure_update_settings', {
      p_settings: { ...base, refuse_checkouts_while_delayed: true },
    })
    expect((await loadSettings(t.database.db)).refuseCheckoutsWhileDelayed).toBe(true)
    // Omitted (an older form) keeps the choice.
    await admin('secure_update_settings', { p_settings: { ...base, low_stock_threshold: 7 } })
    expect((await loadSettings(t.database.db)).telegramBotToken).toBe(TOKEN)
    expect((await loadSettings(t.database.db)).refuseCheckoutsWhileDelayed).toBe(true)
    await admin('secure_update_settings', { p_settings: { ...base, telegram_bot_token: '' } })
    expect((await loadSettings(t.database.db)).telegramBotToken).toBeNull()
  })

  it('bad input is a 400 naming the field', async () => {
    const res = await admin('secure_update_settings', {
      p_settings: { operator_email: 'not-mail', telegram_chat_id: null, alerts, low_stock_threshold: -1 },
    })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/operator_email/)
  })
})
