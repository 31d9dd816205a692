import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { allAlertsOn } from '../../../tests/support/alerts'
import { startReceiver } from '../../../tests/support/http-receiver'
import { testAddresses } from '../../../tests/support/test-addresses'
import { adminSession, createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { ensureFirstAdmin } from '../admin/admin-auth'
import type { ProviderHealth } from '../chains/tron/tron-pool'
import { mailOutbox, operatorAlerts } from '../db/schema'
import { seedOnce } from '../db/seed'
import { addKeyStock } from '../keys/key-stock'
import { lowStockOf } from '../keys/low-stock'
import type { ShopHealth } from '../payments/payments-health'
import { saveSettings } from '../settings/settings'
import { addWalletAddresses } from '../wallets/wallets.repo'
import { OPERATOR_ALERT_MAIL } from './alerts'
import { checkHealth } from './notifier'
import { alertStockLow, alertUnmatchedPayment } from './shop-alerts'
import { drainTelegram } from './telegram'

const PASSWORD = 'alerts-admin-password'
const TOKEN = '4242:telegram-test-token-abcdefghijkl'
const allOn = allAlertsOn

describe.each(engines)('operator notifications on %s', (engine) => {
  let t: TestApp
  let cookie: string
  let telegram: Awaited<ReturnType<typeof startReceiver>>
  let telegramAnswer: (i: number) => { status: number; body: object } = () => ({
    status: 200,
    body: { ok: true, result: { message_id: 1 } },
  })
  const pool = testAddresses(10, 'alerts')

  beforeAll(async () => {
    t = await createTestApp(engine, { ADMIN_PASSWORD: PASSWORD })
    await seedOnce(t.database.db)
    await ensureFirstAdmin(t.database.db, t.env)
    await t.database.db.execute(sql`delete from wallet_addresses`)
    await addWalletAddresses(t.database.db, pool)
    cookie = (await adminSession(t)).cookie as string
    // A local server speaking the Bot API's sendMessage.
    telegram = await startReceiver((_r, res, i) => {
      const a = telegramAnswer(i)
      res.writeHead(a.status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(a.body))
    })
  })
  afterAll(async () => {
    await telegram.close()
    await t.close()
  })
  beforeEach(async () => {
    telegram.received.length = 0
    telegramAnswer = () => ({ status: 200, body: { ok: true, result: { message_id: 1 } } })
    await t.database.db.execute(sql`delete from operator_alerts`)
    await t.database.db.execute(sql`delete from mail_outbox`)
    await saveSettings(t.database.db, {
      operatorEmail: 'ops@example.com',
      telegramBotToken: TOKEN,
      telegramChatId: '-1001234',
      alerts: { ...allOn },
      lowStockThreshold: 5,
      refuseCheckoutsWhileDelayed: false,
    })
  })

  const payOrder = async () => {
    const placed = await rpc(t.app, 'secure_create_order', {
      p_email: 'buyer@example.com',
      p_items: [{ product: { id: 1 }, quantity: 1 }],
      p_total: 49.99,
    })
    const id = placed.body.order_id as string
    await rpc(t.app, 'secure_update_order_status', { p_order_id: id, p_status: 'paid' }, { cookie })
    await t.database.db.execute(
      sql`update wallet_addresses set leased_order_id = null, cooldown_until = null`,
    )
    return id
  }

  it('a paid order reaches the operator by Telegram sendMessage and by e-mail through the mail outbox', async () => {
    const orderId = await payOrder()
    expect(await drainTelegram(t.database.db, { baseUrl: telegram.url })).toBe(1)
    expect(telegram.received).toHaveLength(1)
    const [hit] = telegram.received
    expect(hit!.url).toBe(`/bot${TOKEN}/sendMessage`)
    const body = JSON.parse(hit!.body)
    expect(body.chat_id).toBe('-1001234')
    expect(body.text).toContain(`Order ${orderId} paid: $49.99`)
    const mails = await t.database.db.select().from(mailOutbox)
    const alertMail = mails.find((m) => m.kind === OPERATOR_ALERT_MAIL)
    expect(alertMail).toMatchObject({
      toEmail: 'ops@example.com',
      subject: '[Stablecart] Order paid',
      status: 'pending',
    })
    expect(alertMail!.textBody).toContain(orderId)
  })

  it('a kind switched off stays quiet; with no channel configured nothing is queued', async () => {
    await saveSettings(t.database.db, {
      operatorEmail: 'ops@example.com',
      telegramBotToken: TOKEN,
      telegramChatId: '-1001234',
      alerts: { ...allOn, order_paid: false },
      lowStockThreshold: 5,
      refuseCheckoutsWhileDelayed: false,
    })
    await payOrder()
    expect(await t.database.db.select().from(operatorAlerts)).toHaveLength(0)
    await saveSettings(t.database.db, {
      operatorEmail: null,
      telegramBotToken: null,
      telegramChatId: null,
      alerts: { ...allOn },
      lowStockThreshold: 5,
      refuseCheckoutsWhileDelayed: false,
    })
    await payOrder()
    expect(await t.database.db.select().from(operatorAlerts)).toHaveLength(0)
  })

  it('repeats are rate-limited: low stock of one product alerts once per window', async () => {
    // A stock-only product, held to the shop-wide threshold (5).
    const stocked = await rpc(
      t.app,
      'secure_update_stock_settings',
      { p_product_id: 2, p_delivery_mode: 'stock_only', p_low_stock_threshold: null },
      { cookie },
    )
    expect(stocked.body).toEqual({ success: true })
    await addKeyStock(t.database.db, 2, ['K-1', 'K-2'])
    for (let i = 0; i < 3; i++) {
      await t.database.db.transaction(async (tx) => alertStockLow(tx, await lowStockOf(tx, [2])))
    }
    const alerts = await t.database.db.select().from(operatorAlerts)
    expect(alerts).toHaveLength(1)
    expect(alerts[0]).toMatchObject({ kind: 'stock_low', subjectKey: '2' })
    expect(alerts[0]!.text).toContain('2 licence key(s) left')
  })

  it('an unmatched transfer alerts; Telegram refusing is retried, honouring retry_after', async () => {
    telegramAnswer = (i) =>
      i === 0
        ? {
            status: 429,
            body: { ok: false, description: 'Too Many Requests', parameters: { retry_after: 0 } },
          }
        : { status: 200, body: { ok: true, result: {} } }
    await t.database.db.transaction((tx) =>
      alertUnmatchedPayment(tx, {
        chain: 'tron',
        txId: 'ab'.repeat(32),
        token: 'USDT',
        amountUnits: 5_000_000n,
        fromAddress: pool[8]!,
        toAddress: pool[9]!,
      }),
    )
    expect(await drainTelegram(t.database.db, { baseUrl: telegram.url, backoffBaseMs: 1 })).toBe(0)
    const [pending] = await t.database.db.select().from(operatorAlerts)
    expect(pending).toMatchObject({ telegramStatus: 'pending', telegramError: 'Too Many Requests' })
    await t.database.db.execute(sql`update operator_alerts set telegram_next_at = now()`)
    expect(await drainTelegram(t.database.db, { baseUrl: telegram.url })).toBe(1)
    expect(JSON.parse(telegram.received[1]!.body).text).toContain('5 USDT')
  })

  it('health: pool below 20 % free, failing mail and a stalled chain follower each alert once', async () => {
    const probe: ShopHealth = {
      ...t.app.services.health,
      addressPools: async () => [
        {
          family: 'tron',
          free: 1,
          leased: 9,
          cooling: 0,
          total: 10,
          ordersPerHour: 0,
          hoursToDry: null,
        },
      ],
      followerLagSeconds: async () => 900,
      providers: async () => ({ failingSince: null, list: [] }),
    }
    await t.database.db.insert(mailOutbox).values({
      kind: 'order_paid',
      toEmail: 'b@example.com',
      subject: 's',
      html: 'h',
      textBody: 't',
      status: 'failed',
      attempts: 12,
      lastError: 'connect ECONNREFUSED',
    })
    expect((await checkHealth(t.database.db, probe)).sort()).toEqual([
      'mail_failing',
      'pool_low',
      'scanner_stalled',
    ])
    expect(await checkHealth(t.database.db, probe)).toEqual([])
    const texts = (await t.database.db.select().from(operatorAlerts)).map((a) => a.text).join('\n')
    expect(texts).toContain('1 of 10 addresses free (10 %)')
    expect(texts).toContain('ECONNREFUSED')
    expect(texts).toContain('15 min')
  })

  it('health: every provider failing over a minute, a day 80 % used and a provider set aside each alert once', async () => {
    const health = (over: Partial<ProviderHealth>): ProviderHealth => ({
      name: 'grid',
      url: 'https://api.trongrid.io',
      keys: 1,
      state: 'healthy',
      successRate: 1,
      latencyMs: 80,
      lastError: null,
      suspendedUntil: null,
      suspendedKeys: 0,
      setAside: null,
      requestsToday: 10,
      bytesToday: 1000,
      perDay: 100,
      solidHead: 100,
      lagBlocks: 0,
      ...over,
    })
    const probe: ShopHealth = {
      ...t.app.services.health,
      addressPools: async () => [
        {
          family: 'tron',
          free: 10,
          leased: 0,
          cooling: 0,
          total: 10,
          ordersPerHour: 0,
          hoursToDry: null,
        },
      ],
      followerLagSeconds: async () => 30,
      providers: async () => ({
        failingSince: Date.now() - 90_000,
        list: [
          health({
            name: 'grid',
            requestsToday: 80,
            lastError: { message: 'HTTP 500 from /walletsolidity/getblockbylimitnext', at: Date.now() },
          }),
          health({
            name: 'own node',
            perDay: null,
            setAside: { reason: 'block 101 does not follow the checkpoint 100', until: Date.now() + 60_000 },
          }),
        ],
      }),
    }
    expect((await checkHealth(t.database.db, probe)).sort()).toEqual([
      'provider_quota',
      'provider_set_aside',
      'providers_down',
    ])
    expect(await checkHealth(t.database.db, probe)).toEqual([])
    const texts = (await t.database.db.select().from(operatorAlerts)).map((a) => a.text).join('\n')
    expect(texts).toContain(
      'Chain provider grid has used 80 of its 100 requests today. Add a key or another provider (TRON_PROVIDER_<n>_*).',
    )
    expect(texts).toContain('own node was set aside: block 101 does not follow the checkpoint 100')
    expect(texts).toContain('HTTP 500 from')

    // Under a minute of failures, or a day at 79 %, is not worth a message.
    await t.database.db.execute(sql`delete from operator_alerts`)
    const calm: ShopHealth = {
      ...probe,
      providers: async () => ({ failingSince: Date.now() - 30_000, list: [health({ requestsToday: 79 })] }),
    }
    expect(await checkHealth(t.database.db, calm)).toEqual([])
  })

  it("the app's health counts leased and cooling addresses as not free and forecasts from the week's orders", async () => {
    await t.database.db.execute(sql`delete from orders`)
    await t.database.db.execute(
      sql`update wallet_addresses set leased_order_id = null, cooldown_until = null`,
    )
    for (let i = 0; i < 3; i++) {
      await rpc(t.app, 'secure_create_order', {
        p_email: 'buyer@example.com',
        p_items: [{ product: { id: 1 }, quantity: 1 }],
        p_total: 49.99,
      })
    }
    // The explorer is not part of this check: no provider is failing.
    const health: ShopHealth = {
      ...t.app.services.health,
      providers: async () => ({ failingSince: null, list: [] }),
    }
    // A TRON-only shop: TRON's pool alone, as before.
    expect(await health.addressPools()).toEqual([
      {
        family: 'tron',
        free: 7,
        leased: 3,
        cooling: 0,
        total: 10,
        ordersPerHour: 3 / (7 * 24),
        hoursToDry: 7 / (3 / (7 * 24)),
      },
    ])
    expect(await checkHealth(t.database.db, health)).toEqual([])
    // Six addresses cooling down after their orders: one of ten is free.
    await t.database.db.execute(sql`
      update wallet_addresses set cooldown_until = now() + interval '1 hour'
      where address in (select address from wallet_addresses where leased_order_id is null limit 6)`)
    expect(await health.addressPools()).toMatchObject([{ family: 'tron', free: 1, cooling: 6, total: 10 }])
    expect(await checkHealth(t.database.db, health)).toEqual(['pool_low'])
  })
})
