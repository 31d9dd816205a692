import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testAddresses } from '../../../tests/support/test-addresses'
import { createTestApp, type TestApp } from '../../../tests/support/test-app'
import { createTestDatabase, engines } from '../../../tests/support/test-db'
import { orderLinkMessages } from '../../shared/order-links'
import { seedOnce } from '../db/seed'
import { placeOrder } from '../orders/place-order'
import { settleOrder } from '../payments/settle-order'
import { addWalletAddresses } from '../wallets/wallets.repo'
import { answerOrderLinkAsks } from './order-links-worker'

describe.each(engines)('e-mail me my orders on %s', (engine) => {
  let t: TestApp
  let product: { id: number; price: number }

  beforeAll(async () => {
    const database = await createTestDatabase(engine)
    await seedOnce(database.db)
    await database.db.execute(sql`delete from wallet_addresses`)
    await addWalletAddresses(database.db, testAddresses(8, `links-${engine}-${Math.random()}`))
    t = await createTestApp(
      engine,
      { PUBLIC_URL: 'https://shop.example', ORDER_LINKS_PER_CLIENT: '3', ORDER_LINKS_PER_ADDRESS: '2' },
      { database },
    )
    const [row] = (
      (await database.db.execute(
        sql`select id, price_cents from products where not is_free and price_cents > 0 order by id limit 1`,
      )) as unknown as { rows: { id: number; price_cents: number }[] }
    ).rows
    product = { id: Number(row?.id), price: Number(row?.price_cents) / 100 }
  })
  afterAll(() => t.close())

  let client = 0
  /** Each call from its own client address unless one is given (the per-client limit has its test). */
  const call = async (
    name: string,
    payload: object,
    ip = `10.0.${Math.floor(++client / 250)}.${client % 250}`,
    headers: Record<string, string> = {},
  ) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/rpc/${name}`,
      payload,
      remoteAddress: ip,
      headers,
    })
    return { status: res.statusCode, body: res.json() as Record<string, unknown> }
  }
  const ask = (email: string, ip?: string) => call('secure_request_order_links', { p_email: email }, ip)
  const open = (token: string) => call('secure_open_order_links', { p_token: token })

  async function order(email: string, paid: boolean): Promise<string> {
    const answer = await placeOrder(
      t.database.db,
      {
        p_email: email,
        p_items: [{ product: { id: product.id }, quantity: 1 }],
        p_total: product.price,
        p_chain: 'tron',
      },
      { windowMs: 60_000, graceMs: 60_000 },
    )
    if (!answer.success) throw new Error(answer.error)
    if (paid) {
      await t.database.db.transaction((tx) =>
        settleOrder(tx, answer.order_id, t.app.services.rules, { manual: true }),
      )
    }
    return answer.order_id
  }
  /** The mails in the outbox, once the order-links worker has answered the asks waiting. */
  const mails = async (kind = 'order_links') => {
    await answerOrderLinkAsks(t.database.db, 'https://shop.example')
    return (
      (await t.database.db.execute(
        sql`select to_email, text_body, html from mail_outbox where kind = ${kind} order by id`,
      )) as unknown as { rows: { to_email: string; text_body: string; html: string }[] }
    ).rows
  }
  const tokenIn = (text: string) =>
    /https:\/\/shop\.example\/orders\/([A-Za-z0-9_-]{43})/.exec(text)?.[1] as string

  it('answers known and unknown addresses alike; mails only the asker’s paid orders; the link works once', async () => {
    const mine = [await order('Lost@Example.com', true), await order('lost@example.com', true)]
    const pending = await order('lost@example.com', false)
    const theirs = await order('other@example.com', true)

    const known = await ask('LOST@example.com')
    const unknown = await ask('nobody@example.com')
    const unpaidOnly = await ask('pending-only@example.com')
    expect(known).toEqual({ status: 200, body: { success: true, message: orderLinkMessages.sent } })
    expect(unknown).toEqual(known)
    expect(unpaidOnly).toEqual(known)
    // The answers came before any lookup: three asks wait, no mail is written yet.
    const waiting = await t.database.db.execute(
      sql`select (select count(*)::int from order_link_asks) as asks,
                 (select count(*)::int from mail_outbox where kind = 'order_links') as mails`,
    )
    expect((waiting as unknown as { rows: unknown[] }).rows[0]).toEqual({ asks: 3, mails: 0 })

    const sent = await mails()
    expect(sent).toHaveLength(1)
    const mail = sent[0] as { to_email: string; text_body: string; html: string }
    expect(mail.to_email.toLowerCase()).toBe('lost@example.com')
    for (const id of mine) expect(mail.text_body).toContain(id.slice(0, 8))
    expect(mail.text_body).not.toContain(theirs.slice(0, 8))
    expect(mail.text_body).not.toContain(pending.slice(0, 8))
    const token = tokenIn(mail.text_body)
    expect(mail.html).toContain(token)
    // Only the hash is stored.
    const stored = (
      (await t.database.db.execute(sql`select token_hash from order_links`)) as unknown as {
        rows: { token_hash: string }[]
      }
    ).rows
    expect(stored.map((r) => r.token_hash)).not.toContain(token)

    const first = await open(token)
    expect(first.body).toMatchObject({ success: true, email: 'lost@example.com' })
    const listed = first.body.orders as { id: string; dashboard_path: string }[]
    expect(listed.map((o) => o.id).sort()).toEqual([...mine].sort())
    for (const o of listed) expect(o.dashboard_path).toMatch(/^\/dashboard\/[A-Za-z0-9_-]{32}$/)
    // The dashboard link it gives works.
    const dash = await call('secure_fetch_dashboard', {
      p_access_token: (listed[0] as { dashboard_path: string }).dashboard_path.split('/')[2],
    })
    expect(dash.body).toMatchObject({ success: true })

    expect((await open(token)).body).toEqual({ success: false, error: orderLinkMessages.invalid })
    expect((await open('x'.repeat(43))).body).toEqual({ success: false, error: orderLinkMessages.invalid })
    expect((await open('x'.repeat(201))).status).toBe(400)
    expect((await ask('not an address')).status).toBe(400)
  })

  it('a link expires', async () => {
    await order('late@example.com', true)
    await ask('late@example.com')
    const token = tokenIn((await mails()).at(-1)?.text_body ?? '')
    await t.database.db.execute(
      sql`update order_links set expires_at = now() - interval '1 second' where used_at is null`,
    )
    expect((await open(token)).body).toEqual({ success: false, error: orderLinkMessages.invalid })
  })

  it('limits asks per client and per address, the same for known and unknown addresses', async () => {
    await order('limited@example.com', true)
    const before = (await mails()).length
    // Per address (2 an hour here), whoever asks.
    expect((await ask('limited@example.com')).status).toBe(200)
    expect((await ask('limited@example.com')).status).toBe(200)
    const third = await ask('limited@example.com')
    expect(third.status).toBe(429)
    expect(third.body).toEqual({ success: false, error: orderLinkMessages.tooMany })
    expect((await ask('unknown-limited@example.com')).status).toBe(200)
    expect((await ask('unknown-limited@example.com')).status).toBe(200)
    expect((await ask('unknown-limited@example.com')).status).toBe(429)
    expect(await mails()).toHaveLength(before + 2)
    // Per client (3 a quarter of an hour here), whatever the address.
    const ip = '192.0.2.77'
    for (let i = 0; i < 3; i++) expect((await ask(`client${i}@example.com`, ip)).status).toBe(200)
    expect((await ask('client9@example.com', ip)).status).toBe(429)
  })

  it('writes the answer and the e-mail in the language the buyer asked in; English stays word for word', async () => {
    const paid = await order('russian@example.com', true)
    const russian = await call('secure_request_order_links', { p_email: 'russian@example.com' }, undefined, {
      cookie: 'lang=ru',
      'accept-language': 'en-US',
    })
    await answerOrderLinkAsks(t.database.db, 'https://shop.example')
    expect(russian.body).toEqual({
      success: true,
      message:
        'Если с этим адресом есть оплаченные заказы, мы отправили на него ссылку на них. Ссылка сработает один раз в течение 30 минут.',
    })
    const mail = (
      (await t.database.db.execute(
        sql`select subject, text_body, html from mail_outbox where kind = 'order_links' and to_email = 'russian@example.com'`,
      )) as unknown as { rows: { subject: string; text_body: string; html: string }[] }
    ).rows[0]
    expect(mail?.subject).toBe('Ваши заказы в Stablecart SOFTWARE')
    expect(mail?.text_body).toContain('Вы запросили заказы, оплаченные с этим адресом в Stablecart SOFTWARE:')
    expect(mail?.text_body).toMatch(new RegExp(`· заказ ${paid.slice(0, 8)} · \\d+,\\d{2}\\s\\$ ·`))
    expect(mail?.html).toContain('<html lang="ru">')
    expect(mail?.html).toContain('Открыть мои заказы')

    // Chinese from the browser's Accept-Language, for an answer and a refusal alike.
    const chinese = await call('secure_open_order_links', { p_token: 'x'.repeat(43) }, undefined, {
      'accept-language': 'zh-CN,zh;q=0.9',
    })
    expect(chinese.body).toEqual({ success: false, error: '此链接已过期或已被使用。请在下方重新申请。' })
    const ip = '192.0.2.88'
    for (let i = 0; i < 3; i++) await ask(`zh-limit${i}@example.com`, ip)
    const limited = await call('secure_request_order_links', { p_email: 'zh-limit9@example.com' }, ip, {
      'accept-language': 'zh-CN',
    })
    expect(limited).toEqual({ status: 429, body: { success: false, error: '请求过多，请稍后再试。' } })
  })
})
