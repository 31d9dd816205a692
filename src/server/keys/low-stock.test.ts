import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { testAddresses } from '../../../tests/support/test-addresses'
import { adminSession, createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import type { SalesAnswer } from '../../shared/cockpit'
import { type AlertKind, alertKinds } from '../../shared/settings'
import { operatorAlerts, webhookDeliveries } from '../db/schema'
import { seedOnce } from '../db/seed'
import { saveSettings } from '../settings/settings'
import { addWalletAddresses } from '../wallets/wallets.repo'
import { addKeyStock } from './key-stock'

// Low stock has one rule (keys/low-stock.ts): keys left are neither handed out nor reserved; the
// product's own threshold wins, else the shop-wide one. The alert, the stock.low webhook, the Stock
// tab and the sales view all give the same answer, through the paying flow and the admin calls.

const PASSWORD = 'low-stock-admin-password'

describe.each(engines)('low stock on %s', (engine) => {
  let t: TestApp
  let headers: Record<string, string>

  beforeAll(async () => {
    t = await createTestApp(engine, { ADMIN_PASSWORD: PASSWORD, WEBHOOK_ALLOW_PRIVATE: 'true' })
    await seedOnce(t.database.db)
    await t.database.db.execute(sql`delete from wallet_addresses`)
    await addWalletAddresses(t.database.db, testAddresses(10, 'low-stock'))
    headers = await adminSession(t)
    const hook = await rpc(
      t.app,
      'secure_save_webhook',
      { p_url: 'http://127.0.0.1:9/hook', p_events: ['stock.low'], p_include_keys: false, p_enabled: true },
      headers,
    )
    expect(hook.body).toMatchObject({ success: true })
  })
  afterAll(() => t.close())

  beforeEach(async () => {
    for (const table of ['operator_alerts', 'mail_outbox', 'webhook_deliveries', 'license_keys', 'orders']) {
      await t.database.db.execute(sql.raw(`delete from ${table}`))
    }
    await t.database.db.execute(
      sql`update wallet_addresses set leased_order_id = null, cooldown_until = null`,
    )
  })

  const shopThreshold = (lowStockThreshold: number) =>
    saveSettings(t.database.db, {
      operatorEmail: 'ops@example.com',
      telegramBotToken: null,
      telegramChatId: null,
      // Every alert on but the paid order's, so the stock alert is the only one raised.
      alerts: { ...Object.fromEntries(alertKinds.map((k) => [k, true])), order_paid: false } as Record<
        AlertKind,
        boolean
      >,
      lowStockThreshold,
      refuseCheckoutsWhileDelayed: false,
    })

  const stockSettings = async (
    productId: number,
    threshold: number | null,
    mode: 'stock_only' | 'stock_then_generated' = 'stock_only',
  ) => {
    const res = await rpc(
      t.app,
      'secure_update_stock_settings',
      { p_product_id: productId, p_delivery_mode: mode, p_low_stock_threshold: threshold },
      headers,
    )
    expect(res.body).toEqual({ success: true })
  }

  const placeOrder = async (productId: number, quantity: number) => {
    const price = await t.database.db.execute(sql`select price_cents from products where id = ${productId}`)
    const cents = (price as unknown as { rows: { price_cents: number }[] }).rows[0]!.price_cents
    const placed = await rpc(t.app, 'secure_create_order', {
      p_email: 'buyer@example.com',
      p_items: [{ product: { id: productId }, quantity }],
      p_total: (cents * quantity) / 100,
    })
    expect(placed.status).toBe(200)
    return placed.body.order_id as string
  }

  const pay = async (orderId: string) => {
    const res = await rpc(
      t.app,
      'secure_update_order_status',
      { p_order_id: orderId, p_status: 'paid' },
      headers,
    )
    expect(res.body).toEqual({ success: true })
  }

  const stockRow = async (productId: number) => {
    const sales = (await rpc(t.app, 'secure_fetch_sales', {}, headers)).body as unknown as SalesAnswer
    return sales.stock.find((s) => s.product_id === productId)
  }

  const stockLowEvents = async () =>
    (await t.database.db.select().from(webhookDeliveries))
      .filter((d) => d.eventType === 'stock.low')
      .map((d) => JSON.parse(d.body).data)

  it('a per-product threshold fires the alert and stock.low while the shop-wide one is off', async () => {
    await shopThreshold(0)
    await stockSettings(1, 3)
    await addKeyStock(t.database.db, 1, ['LOW-1', 'LOW-2', 'LOW-3', 'LOW-4'])
    expect(await stockRow(1)).toMatchObject({ keys_left: 4, low_below: 3, low: false })

    await pay(await placeOrder(1, 2))

    const alerts = await t.database.db.select().from(operatorAlerts)
    expect(alerts.map((a) => [a.kind, a.subjectKey])).toEqual([['stock_low', '1']])
    expect(alerts[0]!.text).toBe(
      'Product 1 has 2 licence key(s) left (threshold 3). Add keys on the Products tab.',
    )
    expect(await stockLowEvents()).toEqual([{ product_id: 1, keys_left: 2, threshold: 3 }])
    expect(await stockRow(1)).toMatchObject({ keys_left: 2, low_stock_threshold: 3, low_below: 3, low: true })
  })

  it('keys reserved by a pending order are not left; without its own threshold the shop-wide one applies', async () => {
    await shopThreshold(3)
    await stockSettings(2, null)
    await addKeyStock(t.database.db, 2, ['RES-1', 'RES-2', 'RES-3', 'RES-4', 'RES-5'])
    // One pending order holds two keys: three left, not five.
    await placeOrder(2, 2)
    expect(await stockRow(2)).toMatchObject({ keys_left: 3, keys_reserved: 2, low_below: 3, low: false })

    await pay(await placeOrder(2, 1))

    // Two left (the pending order's two are not counted): below the shop-wide three.
    expect(await stockLowEvents()).toEqual([{ product_id: 2, keys_left: 2, threshold: 3 }])
    const alerts = await t.database.db.select().from(operatorAlerts)
    expect(alerts.map((a) => a.text)).toEqual([
      'Product 2 has 2 licence key(s) left (threshold 3). Add keys on the Products tab.',
    ])
    expect(await stockRow(2)).toMatchObject({ keys_left: 2, keys_reserved: 2, low: true })
  })

  it('a product with its own higher threshold is low in the sales view and Stock tab before the shop-wide one says so', async () => {
    await shopThreshold(1)
    await stockSettings(3, 10)
    await addKeyStock(t.database.db, 3, ['OWN-1', 'OWN-2', 'OWN-3'])
    expect(await stockRow(3)).toMatchObject({
      keys_left: 3,
      low_stock_threshold: 10,
      low_below: 10,
      low: true,
    })
    await stockSettings(3, null)
    expect(await stockRow(3)).toMatchObject({
      keys_left: 3,
      low_stock_threshold: null,
      low_below: 1,
      low: false,
    })
  })

  it('a product that generates its keys once the stock is gone is held only to a threshold of its own', async () => {
    await shopThreshold(5)
    await stockSettings(5, null, 'stock_then_generated')
    await addKeyStock(t.database.db, 5, ['GEN-1'])
    expect(await stockRow(5)).toMatchObject({ keys_left: 1, low_below: null, low: false })
    // Its last stocked key goes: no alert and no stock.low, it makes up keys from now on.
    await pay(await placeOrder(5, 1))
    expect(await stockLowEvents()).toEqual([])
    expect(await t.database.db.select().from(operatorAlerts)).toEqual([])

    await stockSettings(5, 2, 'stock_then_generated')
    expect(await stockRow(5)).toMatchObject({ keys_left: 0, low_below: 2, low: true })
    await addKeyStock(t.database.db, 5, ['GEN-2'])
    await pay(await placeOrder(5, 1))
    expect(await stockLowEvents()).toEqual([{ product_id: 5, keys_left: 0, threshold: 2 }])
  })
})
