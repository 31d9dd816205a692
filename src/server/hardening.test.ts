import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testAddresses } from '../../tests/support/payment-fixture'
import { createTestApp, rpc, type TestApp } from '../../tests/support/test-app'
import { createTestDatabase, engines } from '../../tests/support/test-db'
import { defaultSiteContent } from '../shared/site-content'
import { ensureFirstAdmin, SESSION_COOKIE } from './admin/admin-auth'
import { buildApp } from './app'
import { products } from './db/schema'
import { parseEnv } from './env'
import { addWalletAddresses } from './wallets/wallets.repo'

// What a hostile client sends: each case answered with a clear 4xx, never a 500.

const PASSWORD = 'hardening-admin-password'

describe.each(engines)('hostile input on %s', (engine) => {
  let t: TestApp
  let cookie: string

  beforeAll(async () => {
    t = await createTestApp(engine, { ADMIN_PASSWORD: PASSWORD })
    await ensureFirstAdmin(t.database.db, t.env)
    const login = await rpc(t.app, 'secure_admin_login', { p_username: 'admin', p_password: PASSWORD })
    const raw = login.headers['set-cookie']
    const line = (Array.isArray(raw) ? raw : [String(raw)]).find((c) => c.startsWith(`${SESSION_COOKIE}=`))
    cookie = String(line).split(';')[0] as string
  })
  afterAll(() => t.close())

  it('NUL characters and unpaired surrogates are refused once, naming the field', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['secure_admin_login', { p_username: 'ow\u0000ner', p_password: 'x' }, 'p_username'],
      ['secure_admin_login', { p_username: 'owner', p_password: 'x\ud800' }, 'p_password'],
      [
        'secure_create_order',
        { p_email: 'a\u0000b@example.com', p_items: [{ product: { id: 1 }, quantity: 1 }], p_total: 1 },
        'p_email',
      ],
      [
        'secure_create_order',
        {
          p_email: 'a@example.com',
          p_items: [{ product: { id: 1, name: 'x\udc00' }, quantity: 1 }],
          p_total: 1,
          p_wallet_address: 'T\u0000',
        },
        'p_items.0.product.name',
      ],
      ['secure_fetch_orders', { p_search: 'abc\u0000' }, 'p_search'],
      ['secure_remove_wallet_address', { p_address: 'T\u0000x' }, 'p_address'],
      ['secure_update_site_content', { p_content: { hero: { title: '\ud83d' } } }, 'p_content.hero.title'],
      ['secure_manage_product', { p_product: { name: 'a\u0000' } }, 'p_product.name'],
    ]
    for (const [call, payload, field] of cases) {
      const res = await rpc(t.app, call, payload, { cookie })
      expect(res.status, `${call} ${field}`).toBe(400)
      expect(String(res.body.error)).toContain(field)
    }
    // A key holding one is refused too; a proper surrogate pair (an emoji) is fine.
    const key = await rpc(t.app, 'secure_fetch_products', { 'p_\u0000': 1 })
    expect(key.status).toBe(404)
    const badKey = await rpc(t.app, 'fetch_products', { 'p_\u0000': 1 })
    expect(badKey.status).toBe(400)
    const emoji = await rpc(t.app, 'secure_fetch_orders', { p_search: 'pay 🚀' }, { cookie })
    expect(emoji.status).toBe(200)
  })

  it('ids beyond the database integer range are a 400, not a 500', async () => {
    const big = 2 ** 31
    const cases: [string, Record<string, unknown>][] = [
      ['secure_delete_product', { p_product_id: big }],
      ['secure_assign_payment', { p_payment_id: big, p_order_id: crypto.randomUUID() }],
      [
        'secure_manage_product',
        {
          p_product: {
            id: big,
            name: 'X',
            description: 'Y',
            price: 1,
            image: '/x.png',
            features: ['f'],
            is_free: false,
          },
        },
      ],
    ]
    for (const [call, payload] of cases) {
      const res = await rpc(t.app, call, payload, { cookie })
      expect(res.status, call).toBe(400)
      expect(String(res.body.error)).toMatch(/Invalid request|at most|too big/i)
    }
  })

  it('a cart of the most expensive product the admin can create is an order, not an overflow', async () => {
    const [row] = await t.database.db
      .insert(products)
      .values({
        name: 'Site licence',
        description: 'Everything',
        priceCents: 100_000_000,
        image: '/x.png',
        features: ['all'],
      })
      .returning({ id: products.id })
    await addWalletAddresses(t.database.db, testAddresses(1, 'overflow'))
    const res = await rpc(t.app, 'secure_create_order', {
      p_email: 'big@example.com',
      p_items: [{ product: { id: row?.id }, quantity: 22 }],
      p_total: 22_000_000,
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ success: true, total: 22_000_000 })
    const status = await rpc(t.app, 'secure_get_order_status', {
      p_order_id: res.body.order_id,
      p_order_secret: res.body.order_secret,
    })
    expect(status.body).toMatchObject({ success: true, total: 22_000_000 })
  })

  it('100 parallel dashboard guesses from one client: 20 are looked up, the rest are refused', async () => {
    const guesses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/rpc/secure_fetch_dashboard',
          remoteAddress: '192.0.2.44',
          payload: { p_access_token: `${'G'.repeat(24)}${String(i).padStart(8, '0')}` },
        }),
      ),
    )
    const statuses = guesses.map((g) => g.statusCode)
    expect(statuses.filter((s) => s === 200)).toHaveLength(20)
    expect(statuses.filter((s) => s === 429)).toHaveLength(80)
  })

  it('site content with an unknown section is refused, not silently dropped', async () => {
    const res = await rpc(
      t.app,
      'secure_update_site_content',
      { p_content: { ...defaultSiteContent, surprise: { x: 1 } } },
      { cookie },
    )
    expect(res.status).toBe(400)
    expect(String(res.body.error)).toMatch(/unknown field.*surprise/)
  })
})

describe('the built web app', () => {
  let root: string
  let t: Awaited<ReturnType<typeof buildApp>>
  let database: Awaited<ReturnType<typeof createTestDatabase>>

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'stablecart-web-'))
    const html = '<!doctype html><title>shop</title>'
    writeFileSync(join(root, 'index.html'), html)
    writeFileSync(join(root, 'index.html.gz'), gzipSync(html))
    mkdirSync(join(root, 'assets', 'fonts'), { recursive: true })
    writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)')
    writeFileSync(join(root, 'assets', 'app.js.gz'), gzipSync('console.log(1)'))
    database = await createTestDatabase('pglite')
    t = await buildApp({
      env: parseEnv({ DATA_DIR: '.tmp/test-data', LOG_LEVEL: 'silent', PRICE_SOURCE: 'fixed:0.25' }),
      database,
      webRoot: root,
    })
    await t.ready()
  })
  afterAll(async () => {
    await t.close()
    await database.close()
    rmSync(root, { recursive: true, force: true })
  })

  it('every path answers with or without Accept-Encoding', async () => {
    for (const url of [
      '/',
      '/products',
      '/assets',
      '/assets/',
      '/assets/fonts/',
      '/index.html',
      '/assets/app.js',
    ]) {
      for (const encoding of [undefined, 'gzip', 'identity']) {
        const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {}
        const res = await t.inject({ method: 'GET', url, headers })
        expect(res.statusCode, `${url} ${encoding}`).toBe(200)
        if (url === '/assets/app.js') expect(res.headers['content-type']).toMatch(/javascript/)
        else expect(res.headers['content-type'], `${url} ${encoding}`).toMatch(/text\/html/)
      }
    }
  })
})
