import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testAddresses } from '../../tests/support/payment-fixture'
import { adminSession, createTestApp, rpc, type TestApp } from '../../tests/support/test-app'
import { createTestDatabase, engines } from '../../tests/support/test-db'
import { dateTimeSchema, MAX_ROW_ID } from '../shared/bounds'
import { defaultSiteContent } from '../shared/site-content'
import { ensureFirstAdmin } from './admin/admin-auth'
import { buildApp } from './app'
import { products } from './db/schema'
import { parseEnv } from './env'
import { addWalletAddresses } from './wallets/wallets.repo'

// What a hostile client sends: each case answered with a clear 4xx, never a 500.

const PASSWORD = 'hardening-admin-password'

type Def = { type: string } & Record<string, unknown>
const defOf = (schema: unknown) => (schema as { _zod: { def: Def } })._zod.def

/** The schemas a payload schema holds, each with its field path (wrappers and arrays add none). */
function* walkSchema(schema: unknown, path: string): Generator<{ path: string; schema: unknown }> {
  yield { path, schema }
  const def = defOf(schema)
  const inner = (s: unknown, p = path) => walkSchema(s, p)
  switch (def.type) {
    case 'object':
      for (const [key, value] of Object.entries(def.shape as Record<string, unknown>))
        yield* inner(value, `${path}.${key}`)
      break
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      yield* inner(def.innerType)
      break
    case 'array':
      yield* inner(def.element)
      break
    case 'union':
      for (const option of def.options as unknown[]) yield* inner(option)
      break
    case 'pipe':
      yield* inner(def.in)
      yield* inner(def.out)
      break
    case 'intersection':
      yield* inner(def.left)
      yield* inner(def.right)
      break
    case 'record':
      yield* inner(def.valueType, `${path}.*`)
      break
    case 'lazy':
      yield* inner((def.getter as () => unknown)())
      break
  }
}

/** The field name at the end of a path; the call's own name (no dot) is no field. */
const lastKey = (path: string) => (path.includes('.') ? path.slice(path.lastIndexOf('.') + 1) : '')

/** Number fields named like an id (`id`, `p_id`, `…_id`), and whether zod bounds them to an integer. */
function idFields(schema: unknown, name: string) {
  return [...walkSchema(schema, name)]
    .filter(({ path, schema }) => /(^|_)id$/.test(lastKey(path)) && defOf(schema).type === 'number')
    .map(({ path, schema }) => {
      const n = schema as { isInt: boolean; minValue: number | null; maxValue: number | null }
      return {
        path,
        bounded: n.isInt && (n.minValue ?? -Infinity) >= 0 && (n.maxValue ?? Infinity) <= MAX_ROW_ID,
      }
    })
}

/** Fields named like a date (`p_from`, `p_to`, `…_at`, `…date…`), and whether they are the shared schema. */
function dateFields(schema: unknown, name: string) {
  const named = /^p_(from|to)$|_at$|(^|_)date($|_)/
  const found = [...walkSchema(schema, name)].filter(({ path }) => named.test(lastKey(path)))
  const paths = new Set(found.map((f) => f.path))
  return [...paths].map((path) => ({
    path,
    shared: found.some((f) => f.path === path && f.schema === dateTimeSchema),
  }))
}

describe.each(engines)('hostile input on %s', (engine) => {
  let t: TestApp
  let cookie: string

  beforeAll(async () => {
    t = await createTestApp(engine, { ADMIN_PASSWORD: PASSWORD })
    await ensureFirstAdmin(t.database.db, t.env)
    cookie = (await adminSession(t)).cookie as string
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
    // A key holding one is refused too, before the call is even looked up; a proper surrogate
    // pair (an emoji) is fine.
    const unknownCall = await rpc(t.app, 'secure_fetch_products', { 'p_\u0000': 1 })
    expect(unknownCall.status).toBe(400)
    const badKey = await rpc(t.app, 'fetch_products', { 'p_\u0000': 1 })
    expect(badKey.status).toBe(400)
    expect(badKey.body.error).toMatch(/a field name contains a NUL/)
    const emoji = await rpc(t.app, 'secure_fetch_orders', { p_search: 'pay 🚀' }, { cookie })
    expect(emoji.status).toBe(200)
  })

  it('a NUL in a query string or a path is a 400 on every route, not only /rpc', async () => {
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } })
    const exportNul = await get('/api/admin/export/orders.csv?search=%00')
    expect(exportNul.statusCode).toBe(400)
    expect(exportNul.json().error).toBe(
      'Invalid request: search contains a NUL character or an unpaired surrogate',
    )
    expect((await get('/api/admin/export/orders.csv?search=ab%00c&status=all')).statusCode).toBe(400)
    expect((await get('/api/admin/export/orders.csv?search=abc')).statusCode).toBe(200)

    const health = await get('/api/health?probe=%00')
    expect(health.statusCode).toBe(400)
    expect(health.json().error).toMatch(/probe contains a NUL/)
    const path = await t.app.inject({ method: 'POST', url: '/rpc/secure_fetch_orders%00', payload: {} })
    expect(path.statusCode).toBe(400)
    expect(path.json().error).toMatch(/name contains a NUL/)
  })

  it('every id field of every registered call is a bounded integer', () => {
    const ids = t.app.services.rpc.list().flatMap((def) => idFields(def.input, def.name))
    // The walk reaches the ids it must (nested ones too), so an empty walk cannot pass.
    for (const known of [
      'secure_resend_webhook.p_delivery_id',
      'secure_update_stock_settings.p_product_id',
      'secure_create_order.p_items.product.id',
    ]) {
      expect(ids.map((f) => f.path)).toContain(known)
    }
    const unbounded = ids.filter((f) => !f.bounded).map((f) => f.path)
    expect(unbounded).toEqual([])
  })

  it('every id in every schema src/shared exports is a bounded integer (calls that parse in two steps too)', async () => {
    const folder = join(__dirname, '..', 'shared')
    const ids: ReturnType<typeof idFields> = []
    for (const file of readdirSync(folder).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      const module: Record<string, unknown> = await import(join(folder, file))
      for (const [name, value] of Object.entries(module)) {
        if (value && typeof value === 'object' && '_zod' in value)
          ids.push(...idFields(value, `${file}:${name}`))
      }
    }
    expect(ids.map((f) => f.path)).toEqual(
      expect.arrayContaining(['admin.ts:productInputSchema.id', 'product.ts:productSchema.id']),
    )
    expect(ids.filter((f) => !f.bounded).map((f) => f.path)).toEqual([])
  })

  it('every date field of every registered call is the shared bounded date', () => {
    const dates = t.app.services.rpc.list().flatMap((def) => dateFields(def.input, def.name))
    expect(dates.map((f) => f.path)).toEqual(
      expect.arrayContaining(['secure_fetch_audit_log.p_from', 'secure_reconcile.p_to']),
    )
    expect(dates.filter((f) => !f.shared).map((f) => f.path)).toEqual([])
  })

  it('dates PostgreSQL cannot hold are a 400 naming the range', async () => {
    for (const [call, field, value] of [
      ['secure_fetch_audit_log', 'p_from', '0000-01-01T00:00:00Z'],
      ['secure_fetch_audit_log', 'p_to', '1999-12-31T23:59:59Z'],
      ['secure_fetch_audit_log', 'p_from', '+275760-09-13T00:00:00Z'],
      ['secure_reconcile', 'p_from', '0000-01-01'],
      ['secure_reconcile', 'p_to', 'yesterday'],
    ] as const) {
      const res = await rpc(t.app, call, { [field]: value }, { cookie })
      expect(res.status, `${call} ${value}`).toBe(400)
      expect(res.body.error).toContain(`${field}: must be a date between 2000-01-01 and 9999-12-31`)
    }
    // The range's own ends are accepted, as a date-time and as a day.
    for (const [call, p_from, p_to] of [
      ['secure_fetch_audit_log', '2000-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z'],
      ['secure_reconcile', '2000-01-01', '9999-12-31'],
    ] as const) {
      expect((await rpc(t.app, call, { p_from, p_to }, { cookie })).status, call).toBe(200)
    }
  })

  it('ids beyond the database integer range are a 400, not a 500', async () => {
    const big = 2 ** 31
    const cases: [string, Record<string, unknown>][] = [
      [
        'secure_update_stock_settings',
        { p_product_id: big, p_delivery_mode: 'stock_only', p_low_stock_threshold: null },
      ],
      [
        'secure_save_webhook',
        {
          p_id: big,
          p_url: 'https://example.com/hook',
          p_events: ['order.paid'],
          p_include_keys: false,
          p_enabled: true,
        },
      ],
      ['secure_delete_webhook', { p_id: big }],
      ['secure_fetch_webhook_deliveries', { p_id: big }],
      ['secure_resend_webhook', { p_delivery_id: big }],
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
      expect(String(res.body.error), call).toMatch(
        /^Invalid (request|product): (\w+\.)?\w*id: must be an id from 1 to 2147483647/,
      )
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
