import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { simpleParser } from 'mailparser'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  createPaymentFixture,
  type PaymentFixture,
  testAddresses,
} from '../../../tests/support/payment-fixture'
import { startSmtp } from '../../../tests/support/smtp-peer'
import { rpc } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { waitFor } from '../../../tests/support/wait'
import { dashboardMessages } from '../../shared/dashboard'
import { addKeyStock } from '../keys/key-stock'
import { settleOrder } from '../payments/settle-order'
import { addWalletAddresses } from '../wallets/wallets.repo'
import { createFileTransport, createMailWorker, createSmtpTransport } from './mail-worker'
import emailEn from './messages/en.json'

const KEY_FORMAT = /^[A-HJ-NP-Z2-9]{5}(-[A-HJ-NP-Z2-9]{5}){3}$/

describe.each(engines)('delivery on %s', (engine) => {
  let f: PaymentFixture

  beforeAll(async () => {
    f = await createPaymentFixture(engine, { env: { PUBLIC_URL: 'https://shop.example.com' } })
    await addWalletAddresses(f.t.database.db, testAddresses(110, `${engine} delivery`))
  })
  afterAll(() => f.close())
  beforeEach(async () => {
    await f.t.database.db.execute(sql`update mail_outbox set status = 'sent'`)
  })

  const rows = async (query: ReturnType<typeof sql>) =>
    ((await f.t.database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows

  /** Places and pays an order through the devchain and the chain follower. */
  async function paidOrder(quantity = 1, productIndex = 0, locale?: string) {
    const o = await f.placeOrder({ quantity, productId: f.products[productIndex]?.id, locale })
    await f.pay({ to: o.address, amount: o.total.toFixed(2) })
    const row = await f.order(o.id)
    expect(row.status).toBe('paid')
    return { ...o, token: row.access_token as string }
  }

  const keysOf = async (orderId: string) =>
    (await rows(sql`select key, generated from license_keys where order_id = ${orderId} order by id`)) as {
      key: string
      generated: boolean
    }[]

  it('hands out stock keys first, then generates unique readable ones', async () => {
    const product = f.products[1] as { id: number }
    await addKeyStock(f.t.database.db, product.id, [`STOCK-${engine}-1`, `STOCK-${engine}-2`])
    const first = await paidOrder(3, 1)
    const keys = await keysOf(first.id)
    expect(keys.slice(0, 2)).toEqual([
      { key: `STOCK-${engine}-1`, generated: false },
      { key: `STOCK-${engine}-2`, generated: false },
    ])
    expect(keys[2]?.generated).toBe(true)
    expect(keys[2]?.key).toMatch(KEY_FORMAT)
    const second = await paidOrder(1, 1)
    const more = await keysOf(second.id)
    expect(more).toHaveLength(1)
    expect(more[0]?.key).toMatch(KEY_FORMAT)
    expect(more[0]?.key).not.toBe(keys[2]?.key)
  })

  it('100 orders confirmed concurrently draw 100 distinct keys (60 from stock, 40 generated)', async () => {
    const product = f.products[2] as { id: number }
    const stock = Array.from({ length: 60 }, (_, i) => `BULK-${engine}-${i}`)
    await addKeyStock(f.t.database.db, product.id, stock)
    const placed = await Promise.all(
      Array.from({ length: 100 }, () => f.placeOrder({ productId: product.id })),
    )
    // Settled at once through the one path to paid (as by the admin's hand): keys are drawn concurrently.
    const outcomes = await Promise.all(
      placed.map((o) =>
        f.t.database.db.transaction((tx) => settleOrder(tx, o.id, f.t.app.services.rules, { manual: true })),
      ),
    )
    expect(outcomes.every((o) => o.kind === 'paid')).toBe(true)
    const ids = placed.map((o) => o.id)
    const drawn = (await rows(
      sql`select key, generated, order_id from license_keys where product_id = ${product.id} and order_id is not null and created_at >= now() - interval '10 minutes'`,
    )) as { key: string; generated: boolean; order_id: string }[]
    const mine = drawn.filter((k) => ids.includes(k.order_id))
    expect(mine).toHaveLength(100)
    expect(new Set(mine.map((k) => k.key)).size).toBe(100)
    expect(new Set(mine.map((k) => k.order_id)).size).toBe(100)
    expect(
      mine
        .filter((k) => !k.generated)
        .map((k) => k.key)
        .sort(),
    ).toEqual([...stock].sort())
    // One e-mail per order.
    const mails = await rows(sql`select order_id from mail_outbox where kind = 'order_paid'`)
    expect(mails.filter((m) => ids.includes(m.order_id as string))).toHaveLength(100)
  })

  it('sends one e-mail over SMTP with the recipient, the keys and the dashboard link', async () => {
    const smtp = await startSmtp()
    const worker = createMailWorker({
      db: f.t.database.db,
      transport: createSmtpTransport(smtp.url),
      from: 'Shop <shop@example.com>',
    })
    try {
      const o = await paidOrder(2)
      await worker.drain()
      expect(smtp.received).toHaveLength(1)
      const mail = await simpleParser(smtp.received[0] as Buffer)
      expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : '').toBe('buyer@example.com')
      const link = `https://shop.example.com/dashboard/${o.token}`
      expect(mail.text).toContain(link)
      expect(mail.html).toContain(link)
      for (const { key } of await keysOf(o.id)) {
        expect(mail.text).toContain(key)
        expect(mail.html).toContain(key)
      }
      expect(mail.subject).toContain(o.id.slice(0, 8))
      // The buyer is told not to send to this address again: it goes to another order later.
      expect(mail.text).toContain(emailEn['email.addressNote'])
      expect(mail.html).toContain(emailEn['email.addressNote'])
      const [row] = await rows(sql`select status, attempts from mail_outbox where order_id = ${o.id}`)
      expect(row).toMatchObject({ status: 'sent', attempts: 1 })
      // Draining again sends nothing more.
      expect(await worker.drain()).toBe(0)
      expect(smtp.received).toHaveLength(1)
    } finally {
      await worker.stop()
      await smtp.close()
    }
  })

  it('writes the e-mail in the language the buyer ordered in, with a dashboard link in it', async () => {
    const o = await paidOrder(2, 0, 'ru')
    const [mail] = await rows(sql`select subject, html, text_body from mail_outbox where order_id = ${o.id}`)
    const link = `https://shop.example.com/dashboard/${o.token}?lang=ru`
    expect(mail?.subject).toBe(
      `Ваш заказ ${o.id.slice(0, 8)} в Stablecart SOFTWARE: лицензионные ключи внутри`,
    )
    expect(mail?.text_body).toContain('Спасибо за покупку в Stablecart SOFTWARE.')
    expect(mail?.text_body).toContain(`Оплачено: ${o.total.toFixed(2).replace('.', ',')}\u00a0$`)
    expect(mail?.text_body).toContain(link)
    expect(mail?.html).toContain('<html lang="ru">')
    expect(mail?.html).toContain('Спасибо, оплата подтверждена')
    expect(mail?.html).toContain(`href="${link}"`)
    expect(mail?.html).not.toContain('Thank you')
    // An order placed without a language (an older client) is English.
    const en = await paidOrder(1)
    const [english] = await rows(sql`select subject, text_body from mail_outbox where order_id = ${en.id}`)
    expect(english?.subject).toBe(`Your Stablecart SOFTWARE order ${en.id.slice(0, 8)}: licence keys inside`)
    expect(english?.text_body).toContain(`https://shop.example.com/dashboard/${en.token}\n`)
  })

  it('refuses a language the shop does not speak, creating no order', async () => {
    const before = await rows(sql`select count(*)::int as n from orders`)
    const { status, body } = await rpc(f.t.app, 'secure_create_order', {
      p_email: 'buyer@example.com',
      p_items: [{ product: { id: f.products[0]?.id }, quantity: 1 }],
      p_total: f.products[0]?.price,
      p_locale: 'de',
    })
    expect(status).toBe(400)
    expect(JSON.stringify(body)).toContain('p_locale')
    expect(await rows(sql`select count(*)::int as n from orders`)).toEqual(before)
  })

  it('a server that refuses three times then accepts gets the mail exactly once', async () => {
    const smtp = await startSmtp(3)
    const worker = createMailWorker({
      db: f.t.database.db,
      transport: createSmtpTransport(smtp.url),
      from: 'shop@example.com',
      pollMs: 20,
      backoffBaseMs: 10,
      maxBackoffMs: 40,
    })
    try {
      const o = await paidOrder()
      worker.start()
      await waitFor('the mail to be sent', async () => {
        const [row] = await rows(sql`select status from mail_outbox where order_id = ${o.id}`)
        return row?.status === 'sent'
      })
      const [row] = await rows(sql`select attempts, last_error from mail_outbox where order_id = ${o.id}`)
      expect(row).toMatchObject({ attempts: 4, last_error: null })
      expect(smtp.received).toHaveLength(1)
    } finally {
      await worker.stop()
      await smtp.close()
    }
  })

  it('two workers on one database send every mail once', async () => {
    const smtp = await startSmtp()
    const workers = [1, 2].map(() =>
      createMailWorker({
        db: f.t.database.db,
        transport: createSmtpTransport(smtp.url),
        from: 'shop@example.com',
        pollMs: 10,
      }),
    )
    try {
      for (let i = 0; i < 6; i++) await paidOrder()
      for (const w of workers) w.start()
      await waitFor('six mails', () => smtp.received.length >= 6)
      // Once every row is marked sent, no worker can claim one again: what arrived is all there is.
      await waitFor('every mail marked sent', async () => {
        const [row] = await rows(sql`select count(*)::int as n from mail_outbox where status <> 'sent'`)
        return row?.n === 0
      })
      await Promise.all(workers.map((w) => w.stop()))
      expect(smtp.received).toHaveLength(6)
    } finally {
      await Promise.all(workers.map((w) => w.stop()))
      await smtp.close()
    }
  })

  it('without SMTP, writes a parseable .eml file per mail', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stablecart-outbox-'))
    const worker = createMailWorker({
      db: f.t.database.db,
      transport: createFileTransport(dir),
      from: 'shop@example.com',
    })
    const o = await paidOrder()
    await worker.drain()
    await worker.stop()
    const files = readdirSync(dir).filter((name) => name.endsWith('.eml'))
    expect(files).toHaveLength(1)
    const mail = await simpleParser(readFileSync(join(dir, files[0] as string)))
    expect(mail.text).toContain(`https://shop.example.com/dashboard/${o.token}`)
    expect(mail.from?.text).toBe('shop@example.com')
    // Sent again (the process died before marking it sent): the same file, replaced, not a second one.
    await createFileTransport(dir).send({
      from: 'shop@example.com',
      to: 'buyer@example.com',
      subject: 'again',
      html: '<p>again</p>',
      text: 'again',
      messageId: mail.messageId as string,
    })
    expect(readdirSync(dir)).toEqual(files)
    expect((await simpleParser(readFileSync(join(dir, files[0] as string)))).subject).toBe('again')
  })

  describe('secure_fetch_dashboard', () => {
    const fetchDashboard = async (token: unknown, ip = '203.0.113.1') => {
      const response = await f.t.app.inject({
        method: 'POST',
        url: '/rpc/secure_fetch_dashboard',
        payload: { p_access_token: token },
        remoteAddress: ip,
      })
      return { status: response.statusCode, body: response.json() as Record<string, unknown> }
    }

    it('answers a valid token with its own order only', async () => {
      const a = await paidOrder(2)
      const b = await paidOrder(1, 1)
      const { status, body } = await fetchDashboard(a.token)
      expect(status).toBe(200)
      const order = body.order as Record<string, unknown>
      expect(order).toMatchObject({ id: a.id, status: 'paid', total: a.total, email: 'buyer@example.com' })
      expect(order.tx_url).toMatch(/^https:\/\/tronscan\.org\/#\/transaction\/[0-9a-f]{64}$/)
      const items = order.items as { keys: string[]; quantity: number }[]
      expect(items[0]?.keys).toEqual((await keysOf(a.id)).map((k) => k.key))
      const text = JSON.stringify(body)
      expect(text).not.toContain(b.id)
      for (const { key } of await keysOf(b.id)) expect(text).not.toContain(key)
    })

    it('gives one answer for unknown and malformed tokens, 400 for a non-string, and rate-limits failures', async () => {
      const notFound = { success: false, error: dashboardMessages.notFound }
      expect((await fetchDashboard('A'.repeat(32), '203.0.113.9')).body).toEqual(notFound)
      expect((await fetchDashboard('../../etc/passwd', '203.0.113.9')).body).toEqual(notFound)
      expect((await fetchDashboard(12, '203.0.113.9')).status).toBe(400)
      for (let i = 0; i < 18; i++) await fetchDashboard(`x${i}`, '203.0.113.9')
      const limited = await fetchDashboard('y', '203.0.113.9')
      expect(limited.status).toBe(429)
      expect(limited.body.error).toBe(dashboardMessages.tooMany)
      // Another client is not affected.
      expect((await fetchDashboard('z', '203.0.113.10')).body).toEqual(notFound)
      // Nothing was changed by any of it.
      expect((await rpc(f.t.app, 'fetch_products')).status).toBe(200)
    })
  })
})
