import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createLocalJWKSet, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServerIfStale } from '../../../tests/support/built-server'
import { type SpawnedShop, spawnShop } from '../../../tests/support/spawn-shop'
import { createTestDatabase, engines } from '../../../tests/support/test-db'

const work = mkdtempSync(join(tmpdir(), 'stablecart-backup-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

// npm run backup / restore run the built dist/server/backup-cli.js: built once (when stale) here.
beforeAll(buildServerIfStale, 300_000)

/** npm run backup / restore, as the operator runs them. */
function cli(env: Record<string, string>, ...args: string[]) {
  const run = spawnSync(process.execPath, [resolve('dist/server/backup-cli.js'), ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  })
  return { status: run.status, out: `${run.stdout}${run.stderr}` }
}

async function call(shop: SpawnedShop, name: string, payload: object = {}, cookie = '') {
  const res = await fetch(`${shop.url}/rpc/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(payload),
  })
  return { body: (await res.json()) as Record<string, unknown>, setCookie: res.headers.getSetCookie() }
}

/** A paid order with its keys and dashboard token, and a logged-in admin session. */
async function makeState(shop: SpawnedShop) {
  const login = await call(shop, 'secure_admin_login', {
    p_username: 'admin',
    p_password: 'correct horse battery',
  })
  expect(login.body.success).toBe(true)
  const cookie = login.setCookie.map((c) => c.split(';')[0]).join('; ')
  const products = (await call(shop, 'fetch_products')).body.products as { id: number; price: number }[]
  const product = products.find((p) => p.price > 0) as { id: number; price: number }
  const placed = await call(shop, 'secure_create_order', {
    p_email: 'buyer@example.com',
    p_items: [{ product: { id: product.id }, quantity: 2 }],
    p_total: product.price * 2,
  })
  const orderId = placed.body.order_id as string
  expect(
    (await call(shop, 'secure_update_order_status', { p_order_id: orderId, p_status: 'paid' }, cookie)).body,
  ).toEqual({
    success: true,
  })
  const detail = (await call(shop, 'secure_fetch_order', { p_order_id: orderId }, cookie)).body
  const keys = (detail.keys as { key: string }[]).map((k) => k.key)
  expect(keys).toHaveLength(2)
  // A licence token signed with the shop's signing key, and the keys that verify it.
  const validated = await fetch(`${shop.url}/v1/licenses/validate`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ license_key: keys[0] as string }).toString(),
  })
  const licenceToken = ((await validated.json()) as { license_token: string }).license_token
  const jwks = await (await fetch(`${shop.url}/.well-known/jwks.json`)).json()
  return {
    cookie,
    orderId,
    keys,
    token: (detail.order as { access_token?: string }).access_token,
    licenceToken,
    jwks,
  }
}

/** The same order, keys and session answer after the restore. */
async function expectState(shop: SpawnedShop, state: Awaited<ReturnType<typeof makeState>>) {
  const detail = (await call(shop, 'secure_fetch_order', { p_order_id: state.orderId }, state.cookie)).body
  expect(detail.success).toBe(true)
  expect((detail.order as { status: string }).status).toBe('paid')
  expect((detail.keys as { key: string }[]).map((k) => k.key)).toEqual(state.keys)
  expect((await call(shop, 'secure_admin_session', {}, state.cookie)).body.success).toBe(true)
  // The licence signing key came back with the data: the same published keys, and a token signed
  // before the backup verifies against them.
  const jwks = await (await fetch(`${shop.url}/.well-known/jwks.json`)).json()
  expect(jwks).toEqual(state.jwks)
  await jwtVerify(state.licenceToken, createLocalJWKSet(jwks), { algorithms: ['EdDSA'] })
}

describe.each(engines)('backup and restore on %s', (engine) => {
  it('a round trip keeps orders, keys and sessions, and drops what came after the backup', async () => {
    const dataDir = join(work, engine)
    const env: Record<string, string> = { DATA_DIR: dataDir, DATABASE_URL: '' }
    // PostgreSQL: a throw-away database, dropped when the test ends.
    const database = engine === 'postgres' ? await createTestDatabase('postgres') : undefined
    if (database) env.DATABASE_URL = database.url as string
    const file = join(work, `${engine}.backup`)

    let shop = await spawnShop(env)
    const state = await makeState(shop)
    if (engine === 'pglite') {
      // PGlite belongs to the running shop: the backup refuses until it is stopped.
      const refused = cli(env, 'backup', file)
      expect(refused.status).toBe(1)
      expect(refused.out).toMatch(/stop the shop first/)
      await shop.stop()
      const done = cli(env, 'backup', file)
      expect(done.status, done.out).toBe(0)
      expect(existsSync(file), done.out).toBe(true)
      shop = await spawnShop(env)
    } else {
      // pg_dump reads one snapshot while the shop keeps running.
      const done = cli(env, 'backup', file)
      expect(done.status, done.out).toBe(0)
    }
    // After the backup: another paid order, and a new signing key, that the restore must take away.
    const later = await makeState(shop)
    const rotated = await call(shop, 'secure_rotate_licence_signing_key', {}, later.cookie)
    expect(rotated.body.success).toBe(true)
    await shop.stop()

    const restored = cli(env, 'restore', file)
    expect(restored.status, restored.out).toBe(0)
    if (engine === 'pglite') {
      const aside = /kept in (\S+) /.exec(restored.out)?.[1]
      expect(aside && existsSync(aside)).toBe(true)
    }
    shop = await spawnShop(env)
    try {
      await expectState(shop, state)
      const gone = await call(shop, 'secure_fetch_order', { p_order_id: later.orderId }, state.cookie)
      expect(gone.body.success).toBe(false)
    } finally {
      await shop.stop()
      await database?.close()
    }
  }, 240_000)

  it('refuses a backup of the other engine and a file that is no backup', async () => {
    const other = engine === 'pglite' ? 'x.dump' : 'x.tar.gz'
    const { writeFileSync } = await import('node:fs')
    writeFileSync(
      join(work, other),
      engine === 'pglite' ? 'PGDMP-not-really' : Buffer.from([0x1f, 0x8b, 0, 0, 0]),
    )
    writeFileSync(join(work, 'notes.txt'), 'hello')
    const env = {
      DATA_DIR: join(work, `refuse-${engine}`),
      DATABASE_URL: engine === 'postgres' ? 'postgres://127.0.0.1:1/none' : '',
    }
    const wrong = cli(env, 'restore', join(work, other))
    expect(wrong.status).toBe(1)
    expect(wrong.out).toMatch(/backup, but the shop is configured for/)
    const junk = cli(env, 'restore', join(work, 'notes.txt'))
    expect(junk.status).toBe(1)
    expect(junk.out).toMatch(/not a Stablecart backup/)
    // Two runs of the CLI, each given up to a minute on a busy machine.
  }, 150_000)
})
