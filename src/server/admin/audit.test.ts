import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testAddresses } from '../../../tests/support/test-addresses'
import { createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import type { AuditEntry } from '../../shared/cockpit'
import { defaultSiteContent } from '../../shared/site-content'
import { mailOutbox, orders, payments } from '../db/schema'
import { ensureFirstAdmin, SESSION_COOKIE } from './admin-auth'

const PASSWORD = 'audit-first-password'
const NEW_PASSWORD = 'audit-second-password'
const UA = 'Mozilla/5.0 (audit test)'

describe.each(engines)('audit log on %s', (engine) => {
  let t: TestApp
  let cookie = ''
  const as = () => ({ cookie, 'user-agent': UA })
  const [w1, w2, w3] = testAddresses(3, 'audit') as [string, string, string]

  beforeAll(async () => {
    t = await createTestApp(engine, { ADMIN_PASSWORD: PASSWORD })
    await ensureFirstAdmin(t.database.db, t.env)
  })
  afterAll(() => t.close())

  async function entries(action?: string): Promise<AuditEntry[]> {
    const res = await rpc(t.app, 'secure_fetch_audit_log', action ? { p_action: action } : {}, as())
    expect(res.status).toBe(200)
    return res.body.entries as AuditEntry[]
  }

  it('records every admin action: who, when, from where, what; never a password or a key', async () => {
    const { db } = t.database
    // Login: a failure, then a success.
    await rpc(
      t.app,
      'secure_admin_login',
      { p_username: 'admin', p_password: 'wrong-password' },
      { 'user-agent': UA },
    )
    const login = await rpc(
      t.app,
      'secure_admin_login',
      { p_username: 'admin', p_password: PASSWORD },
      { 'user-agent': UA },
    )
    cookie = String(login.headers['set-cookie']).split(';')[0] as string
    expect(cookie.startsWith(SESSION_COOKIE)).toBe(true)
    // A locked-out name: five failures, then the lock.
    for (let i = 0; i < 6; i++) {
      await rpc(
        t.app,
        'secure_admin_login',
        { p_username: 'mallory', p_password: `guess-${i}` },
        { 'user-agent': UA },
      )
    }

    // Products and keys.
    const product = {
      name: 'Audited Tool',
      description: 'Does things',
      price: 12.5,
      image: '/images/x.svg',
      features: ['one'],
      is_free: false,
    }
    const created = await rpc(
      t.app,
      'secure_manage_product',
      { p_product: product, p_keys: 'SECRET-KEY-AAAA\nSECRET-KEY-BBBB' },
      as(),
    )
    expect(created.body).toMatchObject({ success: true, keys_added: 2 })
    const productId = created.body.product_id as number
    await rpc(
      t.app,
      'secure_manage_product',
      { p_product: { ...product, id: productId, name: 'Audited Tool 2', price: 13 } },
      as(),
    )
    await rpc(
      t.app,
      'secure_update_stock_settings',
      { p_product_id: productId, p_delivery_mode: 'stock_only', p_low_stock_threshold: 3 },
      as(),
    )

    // Orders, mails, payments.
    const orderId = randomUUID()
    await db.insert(orders).values({
      id: orderId,
      email: 'buyer@example.com',
      items: [{ product: { id: productId, name: 'Audited Tool', price_cents: 1250 }, quantity: 1 }],
      totalCents: 1250,
      walletAddress: w3,
      windowEndsAt: new Date(Date.now() + 60_000),
      graceUntil: new Date(Date.now() + 120_000),
    })
    await db.insert(mailOutbox).values({
      orderId,
      kind: 'order_paid',
      toEmail: 'buyer@example.com',
      subject: 's',
      html: 'h',
      textBody: 't',
      status: 'failed',
    })
    const [payment] = await db
      .insert(payments)
      .values({
        txId: 'ab'.repeat(32),
        token: 'USDT',
        amountUnits: 12_500_000n,
        fromAddress: w1,
        toAddress: w3,
        blockTimestamp: Date.now(),
      })
      .returning({ id: payments.id })
    await rpc(t.app, 'secure_update_order_status', { p_order_id: orderId, p_status: 'cancelled' }, as())
    await rpc(t.app, 'secure_resend_order_email', { p_order_id: orderId }, as())
    await rpc(t.app, 'secure_assign_payment', { p_payment_id: payment!.id, p_order_id: orderId }, as())
    await rpc(t.app, 'secure_delete_order', { p_order_id: orderId }, as())
    await rpc(t.app, 'secure_delete_product', { p_product_id: productId }, as())

    // Wallets, content, export.
    await rpc(t.app, 'secure_add_wallet_addresses', { p_addresses: [w1, w2, w3] }, as())
    await rpc(t.app, 'secure_remove_wallet_address', { p_address: w1 }, as())
    await rpc(t.app, 'secure_remove_wallet_addresses', { p_addresses: [w2, w3] }, as())
    const content = structuredClone(defaultSiteContent)
    content.hero.title = 'New title'
    content.meta.title = 'New meta'
    await rpc(t.app, 'secure_update_site_content', { p_content: content }, as())
    const csv = await t.app.inject({
      method: 'GET',
      url: '/api/admin/export/orders.csv?status=paid',
      headers: as(),
    })
    expect(csv.statusCode).toBe(200)

    // Credentials: a refused change, then one that works.
    await rpc(
      t.app,
      'secure_update_admin_credentials',
      { p_current_password: 'not-the-password', p_new_username: 'admin', p_new_password: NEW_PASSWORD },
      as(),
    )
    await rpc(
      t.app,
      'secure_update_admin_credentials',
      { p_current_password: PASSWORD, p_new_username: 'boss', p_new_password: NEW_PASSWORD },
      as(),
    )
    await rpc(t.app, 'secure_admin_logout', {}, as())
    const again = await rpc(
      t.app,
      'secure_admin_login',
      { p_username: 'boss', p_password: NEW_PASSWORD },
      { 'user-agent': UA },
    )
    cookie = String(again.headers['set-cookie']).split(';')[0] as string

    const log = (await entries()).reverse()
    const brief = log.map((e) => [e.action, e.actor, e.target, e.details])
    expect(brief).toEqual([
      ['login_failed', 'admin', null, {}],
      ['login', 'admin', null, {}],
      ...Array.from({ length: 5 }, () => ['login_failed', 'mallory', null, {}]),
      ['login_locked', 'mallory', null, {}],
      ['product_create', 'admin', String(productId), { name: 'Audited Tool' }],
      ['key_stock_upload', 'admin', String(productId), { added: 2, stock: 2 }],
      ['product_update', 'admin', String(productId), { fields: ['name', 'price'] }],
      [
        'product_stock_settings',
        'admin',
        String(productId),
        {
          delivery_mode: { from: 'stock_then_generated', to: 'stock_only' },
          low_stock_threshold: { from: null, to: 3 },
        },
      ],
      ['order_status', 'admin', orderId, { from: 'pending', to: 'cancelled' }],
      ['mail_resend', 'admin', orderId, { queued: 1 }],
      ['payment_assign', 'admin', orderId, { payment_id: payment!.id }],
      // The assigned transfer covered the order: it settled to paid before it was deleted.
      ['order_delete', 'admin', orderId, { status: 'paid', total: 12.5 }],
      ['product_delete', 'admin', String(productId), { name: 'Audited Tool 2' }],
      ['wallet_add', 'admin', null, { added: 3, addresses: [w1, w2, w3], submitted: 3 }],
      ['wallet_remove', 'admin', null, { removed: 1, addresses: [w1] }],
      ['wallet_remove', 'admin', null, { removed: 2, addresses: [w2, w3] }],
      ['content_update', 'admin', null, { fields: ['hero', 'meta'] }],
      ['export', 'admin', 'orders', { search: null, status: 'paid' }],
      ['credentials_change_failed', 'admin', null, { reason: 'Current password is incorrect' }],
      ['credentials_change', 'admin', null, { username_changed: true, new_username: 'boss' }],
      ['logout', 'boss', null, {}],
      ['login', 'boss', null, {}],
    ])
    for (const e of log) {
      expect(e.ip).toBe('127.0.0.1')
      expect(e.user_agent).toBe(UA)
      expect(Date.now() - Date.parse(e.at)).toBeLessThan(120_000)
    }
    const text = JSON.stringify(log)
    for (const secret of [
      PASSWORD,
      NEW_PASSWORD,
      'wrong-password',
      'guess-',
      'not-the-password',
      'SECRET-KEY',
    ]) {
      expect(text).not.toContain(secret)
    }
  })

  it('reads the log filtered by action and time, paged; reading is not recorded', async () => {
    const failed = await entries('login_failed')
    expect(failed.map((e) => e.actor)).toEqual([
      'mallory',
      'mallory',
      'mallory',
      'mallory',
      'mallory',
      'admin',
    ])
    const all = await rpc(t.app, 'secure_fetch_audit_log', {}, as())
    const total = all.body.total_count as number
    expect(total).toBe(26)
    const future = await rpc(
      t.app,
      'secure_fetch_audit_log',
      { p_from: new Date(Date.now() + 60_000).toISOString() },
      as(),
    )
    expect(future.body).toMatchObject({ entries: [], total_count: 0 })
    const past = await rpc(
      t.app,
      'secure_fetch_audit_log',
      { p_to: new Date(Date.now() - 3_600_000).toISOString() },
      as(),
    )
    expect(past.body.total_count).toBe(0)
    const page2 = await rpc(t.app, 'secure_fetch_audit_log', { p_page: 2 }, as())
    expect(page2.body).toMatchObject({ entries: [], total_count: 26, page: 2, page_size: 50 })
    expect((await rpc(t.app, 'secure_fetch_audit_log', { p_action: 'nonsense' }, as())).status).toBe(400)
    expect((await rpc(t.app, 'secure_fetch_audit_log', { p_from: 'yesterday' }, as())).status).toBe(400)
    expect((await rpc(t.app, 'secure_fetch_audit_log', {})).status).toBe(401)
  })

  it('is append-only: the database refuses changes and deletions', async () => {
    await expect(t.database.db.execute(sql`update audit_log set actor = 'someone else'`)).rejects.toThrow()
    await expect(t.database.db.execute(sql`delete from audit_log`)).rejects.toThrow()
    const res = await rpc(t.app, 'secure_fetch_audit_log', {}, as())
    expect(res.body.total_count).toBe(26)
  })
})
