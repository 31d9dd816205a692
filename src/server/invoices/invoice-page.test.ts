import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testAddresses } from '../../../tests/support/test-addresses'
import { adminSession, rpc, type TestApp } from '../../../tests/support/test-app'
import { createTestDatabase, engines } from '../../../tests/support/test-db'
import type { InvoicePage } from '../../shared/invoice-page'
import { STATUS_STREAM_PATH } from '../../shared/order-status'
import { buildApp } from '../app'
import { seedOnce } from '../db/seed'
import { parseEnv } from '../env'
import { addWalletAddresses } from '../wallets/wallets.repo'

// The hosted payment page at an invoice's checkoutLink, through real HTTP (app.inject) on each
// engine, rendered by the real server-rendering entry: the page of a known, expired, invalid and
// paid invoice, an unknown or malformed id (a 404 page), the invoice's language, and what the
// invoice's id grants the page's status call (the order's payment, never its secret's token).

const PASSWORD = 'invoice-page-admin-password'

function serverData(html: string): { invoice: InvoicePage; path: string } {
  const match = /<script type="application\/json" id="server-data">([\s\S]*?)<\/script>/.exec(html)
  if (!match?.[1]) throw new Error('no server data in the page')
  return JSON.parse(match[1])
}

/** The page's visible text, roughly as a reader sees it. */
const textOf = (html: string) =>
  (/<div id="root">([\s\S]*)<\/div><script/.exec(html)?.[1] ?? '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, ' ')

describe.each(engines)('the hosted payment page on %s', (engine) => {
  let t: TestApp
  let root: string
  let admin: Record<string, string>
  let key: string
  let storeId: string

  const api = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const response = await t.app.inject({
      method,
      url,
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        authorization: `token ${key}`,
      },
    })
    return { status: response.statusCode, body: response.json() as Record<string, unknown> }
  }
  const createInvoice = async (body: Record<string, unknown>) => {
    const made = await api('POST', `/api/v1/stores/${storeId}/invoices`, body)
    expect(made.status).toBe(200)
    return made.body as { id: string; checkoutLink: string }
  }
  const page = async (path: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ method: 'GET', url: path, headers })
    return { status: res.statusCode, html: res.body, headers: res.headers }
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'stablecart-invoice-page-'))
    mkdirSync(join(root, 'web'), { recursive: true })
    mkdirSync(join(root, 'ssr'), { recursive: true })
    writeFileSync(
      join(root, 'web', 'index.html'),
      '<!doctype html>\n<html lang="en">\n<head><meta name="description" content="x" /><meta name="theme-color" content="#000000" /><title>Stablecart</title></head>\n<body><div id="root"></div></body>\n</html>',
    )
    // The server-rendering entry as `vite build --ssr` bundles it, here straight from its source.
    const entry = resolve(__dirname, '../../web/entry-server.tsx')
    writeFileSync(join(root, 'ssr', 'entry-server.js'), `export * from ${JSON.stringify(entry)}\n`)

    const database = await createTestDatabase(engine)
    await seedOnce(database.db)
    await database.db.execute(sql`delete from wallet_addresses`)
    await addWalletAddresses(database.db, testAddresses(10, `${engine}-page-${Math.random()}`))
    const env = parseEnv({
      DATA_DIR: '.tmp/test-data',
      LOG_LEVEL: 'silent',
      PRICE_SOURCE: 'fixed:0.25',
      ADMIN_PASSWORD: PASSWORD,
      PUBLIC_URL: 'https://shop.test',
    })
    const app = await buildApp({ env, database, webRoot: join(root, 'web') })
    await app.ready()
    t = {
      app,
      database,
      env,
      close: async () => {
        await app.close()
        await database.close()
      },
    }
    admin = await adminSession(t)
    const made = await rpc(
      t.app,
      'secure_create_api_key',
      {
        p_current_password: PASSWORD,
        p_label: 'Seller site',
        p_scopes: [
          'btcpay.store.cancreateinvoice',
          'btcpay.store.canviewinvoices',
          'btcpay.store.canmodifyinvoices',
        ],
      },
      admin,
    )
    key = made.body.key as string
    storeId = (await rpc(t.app, 'secure_fetch_api_keys', {}, admin)).body.store_id as string
  })
  afterAll(async () => {
    await t?.close()
    rmSync(root, { recursive: true, force: true })
  })

  it("a known invoice's checkoutLink is the storefront's payment page with its order, in its language", async () => {
    const invoice = await createInvoice({
      amount: '12.50',
      metadata: { orderId: 'woo-501', itemDesc: 'Pro licence' },
      checkout: { redirectURL: 'https://seller.test/thanks/{OrderId}', defaultLanguage: 'ru-RU' },
    })
    const url = new URL(invoice.checkoutLink)
    expect(url.origin).toBe('https://shop.test')
    expect(url.pathname).toBe(`/invoice/${invoice.id}`)

    const res = await page(url.pathname, { 'accept-language': 'en-US' })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.html).toContain('<html lang="ru"')
    expect(res.html).toContain('<meta name="robots" content="noindex" />')
    const [order] = (
      (await t.database.db.execute(
        sql`select o.id, o.wallet_address from orders o join invoices i on i.order_id = o.id where i.id = ${invoice.id}`,
      )) as unknown as { rows: { id: string; wallet_address: string }[] }
    ).rows
    const text = textOf(res.html)
    // The payment page's own words, in Russian, with the order's address and amount.
    expect(text).toContain('Заказ')
    expect(text).toContain(order?.id.slice(0, 8))
    expect(res.html).toContain(order?.wallet_address)
    expect(text).toContain('12,50 USDT')
    // Written in place, with no script of React's streaming (the shop's CSP allows none inline).
    expect(res.html).not.toMatch(/\$RC|\$RB|\$RT|hidden id="S:/)
    // Whole: no part left for the browser to render (React's client-render fallback).
    expect(res.html).not.toContain('<!--$!-->')
    expect(text).not.toContain('Complete Your Payment')
    // The seller's invoice is not the buyer's to cancel here.
    expect(text).not.toMatch(/Отменить заказ|Cancel/i)

    const data = serverData(res.html)
    expect(data.path).toBe(url.pathname)
    expect(data.invoice).toMatchObject({
      found: true,
      id: invoice.id,
      state: 'open',
      locale: 'ru',
      item: 'Pro licence',
      back: { url: 'https://seller.test/thanks/woo-501', seller: 'seller.test', automatic: false },
      order: { order_id: order?.id, wallet_address: order?.wallet_address, total: 12.5, chain: 'tron' },
    })
    // No secret of the order is in the page.
    expect(res.html).not.toMatch(/secret|access_token/)

    // ?lang= (the switcher's link) wins over the invoice's language.
    expect((await page(`${url.pathname}?lang=zh`)).html).toContain('<html lang="zh-CN"')
    // The browser's own look at it answers the same.
    const asked = await rpc(t.app, 'secure_get_invoice_page', { p_invoice_id: invoice.id })
    expect(asked.body).toEqual({ success: true, page: data.invoice })
  })

  it("the invoice's id lets its page watch the order, never gives the order's dashboard token", async () => {
    const invoice = await createInvoice({ amount: '3', checkout: { defaultLanguage: 'zh-CN' } })
    const { invoice: data } = serverData((await page(`/invoice/${invoice.id}`)).html)
    if (!data.found) throw new Error('not found')
    const orderId = data.order.order_id
    const status = async (extra: Record<string, unknown>) =>
      (await rpc(t.app, 'secure_get_order_status', { p_order_id: orderId, ...extra })).body
    // Without it: only whether it is paid. With it: the page's full answer.
    expect(await status({})).toEqual({ success: true, order_id: orderId, paid: false })
    const full = await status({ p_invoice_id: invoice.id })
    expect(full).toMatchObject({ success: true, status: 'pending', total: 3, access_token: null })
    // Another invoice's id grants nothing about this order; a malformed one is refused in words.
    const other = await createInvoice({ amount: '4' })
    expect(await status({ p_invoice_id: other.id })).toEqual({
      success: true,
      order_id: orderId,
      paid: false,
    })
    const bad = await rpc(t.app, 'secure_get_order_status', { p_order_id: orderId, p_invoice_id: 'x' })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.body)).toContain('invoice id')
    // The page's stream of news takes the invoice's id the same way; another invoice's id, or none,
    // is refused before a stream starts.
    const stream = (extra: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: STATUS_STREAM_PATH, payload: { p_order_id: orderId, ...extra } })
    expect((await stream({ p_invoice_id: other.id })).statusCode).toBe(403)
    expect((await stream({})).statusCode).toBe(403)
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = t.app.server.address() as AddressInfo
    const controller = new AbortController()
    try {
      const res = await fetch(`http://127.0.0.1:${port}${STATUS_STREAM_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ p_order_id: orderId, p_invoice_id: invoice.id }),
        signal: controller.signal,
      })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
      const first = await (res.body as ReadableStream<Uint8Array>).getReader().read()
      expect(new TextDecoder().decode(first.value)).toContain('event: ready')
    } finally {
      controller.abort()
    }

    // Paid (marked settled by the seller): the page says so, and the status still carries no token.
    expect(
      (await api('POST', `/api/v1/stores/${storeId}/invoices/${invoice.id}/status`, { status: 'Settled' }))
        .status,
    ).toBe(200)
    const paid = await page(`/invoice/${invoice.id}`)
    expect(serverData(paid.html).invoice).toMatchObject({ state: 'paid', locale: 'zh' })
    expect(textOf(paid.html)).toContain('付款已确认')
    const after = await status({ p_invoice_id: invoice.id })
    expect(after).toMatchObject({ status: 'paid', access_token: null })
  })

  it('an expired or invalid invoice says so in words and links back to the seller', async () => {
    const expired = await createInvoice({
      amount: '5',
      metadata: { orderId: 'woo-502' },
      checkout: { redirectURL: 'https://seller.test/cart?order={OrderId}&invoice={InvoiceId}' },
    })
    await t.database.db.execute(
      sql`update orders set window_ends_at = now() - interval '1 minute' where id = (select order_id from invoices where id = ${expired.id})`,
    )
    const res = await page(`/invoice/${expired.id}`)
    expect(res.status).toBe(200)
    expect(textOf(res.html)).toContain('This invoice has expired')
    expect(textOf(res.html)).toContain('Back to seller.test')
    expect(res.html).toContain(`href="https://seller.test/cart?order=woo-502&amp;invoice=${expired.id}"`)

    const invalid = await createInvoice({
      amount: '6',
      checkout: { redirectURL: 'https://seller.test/', defaultLanguage: 'zh' },
    })
    expect(
      (await api('POST', `/api/v1/stores/${storeId}/invoices/${invalid.id}/status`, { status: 'Invalid' }))
        .status,
    ).toBe(200)
    const gone = await page(`/invoice/${invalid.id}`)
    expect(gone.status).toBe(200)
    expect(textOf(gone.html)).toContain('此账单已取消')
    expect(textOf(gone.html)).toContain('返回 seller.test')
    // Without a redirectURL there is no link, and the words say whom to ask.
    const alone = await createInvoice({ amount: '7' })
    await api('POST', `/api/v1/stores/${storeId}/invoices/${alone.id}/status`, { status: 'Invalid' })
    const aloneText = textOf((await page(`/invoice/${alone.id}`)).html)
    expect(aloneText).toContain('Ask the seller for what to do next')
    expect(aloneText).not.toContain('Back to')
  })

  it("the seller's metadata.orderId is in the admin's order view and the orders CSV", async () => {
    const invoice = await createInvoice({ amount: '8', metadata: { orderId: 'woo-csv-7' } })
    const { invoice: data } = serverData((await page(`/invoice/${invoice.id}`)).html)
    if (!data.found) throw new Error('not found')
    const orderId = data.order.order_id
    const detail = await rpc(t.app, 'secure_fetch_order', { p_order_id: orderId }, admin)
    expect((detail.body.order as Record<string, unknown>).seller_order_id).toBe('woo-csv-7')
    const csv = await t.app.inject({ method: 'GET', url: '/api/admin/export/orders.csv', headers: admin })
    expect(csv.statusCode).toBe(200)
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/)
    expect(lines[0]?.split(',').at(-1)).toBe('seller_order_id')
    expect(
      lines
        .find((l) => l.startsWith(orderId))
        ?.split(',')
        .at(-1),
    ).toBe('woo-csv-7')
  })

  it('an unknown or malformed id is a 404 page in the visitor’s language, never a 500', async () => {
    const unknown = await page('/invoice/AAAAAAAAAAAAAAAAAAAAAA', { 'accept-language': 'ru' })
    expect(unknown.status).toBe(404)
    expect(unknown.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(textOf(unknown.html)).toContain('Страница оплаты не найдена')
    for (const path of [
      '/invoice/short',
      `/invoice/${'A'.repeat(5000)}`,
      '/invoice/%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      "/invoice/'%20or%201=1--",
      '/invoice/a/b',
      '/invoice/',
    ]) {
      const res = await page(path)
      expect(res.status, path).toBe(404)
      expect(textOf(res.html), path).toContain('Payment page not found')
      expect(res.html, path).not.toContain('<script>alert')
      expect(serverData(res.html).invoice.found, path).toBe(false)
    }
    const asked = await rpc(t.app, 'secure_get_invoice_page', { p_invoice_id: 'AAAAAAAAAAAAAAAAAAAAAA' })
    expect(asked.body).toEqual({ success: true, page: { found: false, id: 'AAAAAAAAAAAAAAAAAAAAAA' } })
    expect((await rpc(t.app, 'secure_get_invoice_page', { p_invoice_id: '../x' })).status).toBe(400)
  })
})
