import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buyKeys, licensedProduct } from '../../../tests/support/licence-fixture'
import { testAddresses } from '../../../tests/support/test-addresses'
import { createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { createTestDatabase, engines } from '../../../tests/support/test-db'
import { licenseKeys, webhookEndpoints } from '../db/schema'
import { updateOrderStatus } from '../orders/order-admin'
import { addWalletAddresses } from '../wallets/wallets.repo'

type Answer = { status: number; body: Record<string, unknown>; headers: Headers }

describe.each(engines)('licence API on %s', (engine) => {
  let t: TestApp
  let base: string

  beforeAll(async () => {
    const database = await createTestDatabase(engine, { poolSize: 20 })
    t = await createTestApp(
      engine,
      { LICENCE_RATE_PER_CLIENT: '100000', LICENCE_RATE_PER_KEY: '100000' },
      { database },
    )
    await t.app.listen({ host: '127.0.0.1', port: 0 })
    const address = t.app.server.address()
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    await t.database.db.insert(webhookEndpoints).values({
      url: 'http://127.0.0.1:9/hook',
      events: ['license_key.activated', 'license_key.deactivated', 'license_key.disabled'],
      secret: 's',
    })
  }, 120_000)
  afterAll(() => t.close())

  const call = async (
    verb: 'activate' | 'validate' | 'deactivate',
    fields: Record<string, unknown>,
    as: 'form' | 'json' = 'form',
  ): Promise<Answer> => {
    const response = await fetch(`${base}/v1/licenses/${verb}`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': as === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
      },
      body:
        as === 'form'
          ? new URLSearchParams(fields as Record<string, string>).toString()
          : JSON.stringify(fields),
    })
    return {
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
      headers: response.headers,
    }
  }

  const events = async (type: string) => {
    const result = (await t.database.db.execute(
      sql`select body from webhook_deliveries where event_type = ${type} order by id`,
    )) as unknown as { rows: { body: string }[] }
    return result.rows.map((r) => JSON.parse(r.body).data as Record<string, unknown>)
  }

  it('activates up to the limit, refuses the next, and a deactivation frees a seat', async () => {
    const productId = await licensedProduct(t, { limit: 2, days: null, name: 'Two Seats' })
    const { keys, orderId, email } = await buyKeys(t, productId)
    const key = keys[0]!
    const first = await call('activate', { license_key: key, instance_name: 'Laptop' })
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({
      activated: true,
      error: null,
      license_key: { key, status: 'active', activation_limit: 2, activation_usage: 1, expires_at: null },
      instance: { name: 'Laptop' },
      meta: {
        store_id: 1,
        order_id: orderId,
        product_id: productId,
        product_name: 'Two Seats',
        customer_email: email,
      },
    })
    expect(typeof first.body.license_token).toBe('string')
    const second = await call('activate', { license_key: key, instance_name: 'Desktop' }, 'json')
    expect(second.body).toMatchObject({ activated: true, license_key: { activation_usage: 2 } })
    const third = await call('activate', { license_key: key, instance_name: 'Third' })
    expect(third.status).toBe(400)
    expect(third.body).toMatchObject({
      activated: false,
      error: 'This license key has reached the activation limit.',
      license_key: { activation_usage: 2, activation_limit: 2 },
      instance: null,
      license_token: null,
    })

    const firstId = (first.body.instance as { id: string }).id
    const freed = await call('deactivate', { license_key: key, instance_id: firstId })
    expect(freed.status).toBe(200)
    expect(freed.body).toMatchObject({ deactivated: true, error: null, license_key: { activation_usage: 1 } })
    expect('instance' in freed.body).toBe(false)
    // The same instance again: it is gone.
    expect((await call('deactivate', { license_key: key, instance_id: firstId })).status).toBe(404)
    const again = await call('activate', { license_key: key, instance_name: 'Third' })
    expect(again.body).toMatchObject({ activated: true, license_key: { activation_usage: 2 } })

    const activated = (await events('license_key.activated')).filter((e) => e.order_id === orderId)
    expect(activated.map((e) => (e.instance as { name: string }).name)).toEqual([
      'Laptop',
      'Desktop',
      'Third',
    ])
    expect(activated[0]!.key_short).toBe(`XXXX-${key.slice(-5)}`)
    const deactivated = (await events('license_key.deactivated')).filter((e) => e.order_id === orderId)
    expect(deactivated).toHaveLength(1)
  })

  it('validates with and without an instance; form and JSON bodies get the same answers', async () => {
    const productId = await licensedProduct(t, { limit: null, days: null })
    const { keys } = await buyKeys(t, productId)
    const key = keys[0]!
    const fresh = await call('validate', { license_key: key })
    expect(fresh.status).toBe(200)
    expect(fresh.body).toMatchObject({
      valid: true,
      error: null,
      instance: null,
      license_key: { status: 'inactive', activation_limit: null, activation_usage: 0 },
    })
    const activated = await call('activate', { license_key: key, instance_name: 'Build server' })
    const instanceId = (activated.body.instance as { id: string }).id
    for (const as of ['form', 'json'] as const) {
      const withInstance = await call('validate', { license_key: key, instance_id: instanceId }, as)
      expect(withInstance.body).toMatchObject({
        valid: true,
        license_key: { status: 'active', activation_usage: 1 },
        instance: { id: instanceId, name: 'Build server' },
      })
    }
    const strip = (a: Answer) => ({ ...a.body, license_token: typeof a.body.license_token })
    for (const [verb, fields] of [
      ['validate', { license_key: key }],
      ['validate', { license_key: key, instance_id: instanceId }],
      ['validate', { license_key: 'NOPE-NOPE' }],
      ['activate', { license_key: key }],
      ['deactivate', { license_key: key, instance_id: '00000000-0000-4000-8000-000000000000' }],
    ] as const) {
      const form = await call(verb, fields, 'form')
      const json = await call(verb, fields, 'json')
      expect(json.status).toBe(form.status)
      expect(strip(json)).toEqual(strip(form))
    }
    const unknownInstance = await call('validate', {
      license_key: key,
      instance_id: '00000000-0000-4000-8000-000000000000',
    })
    expect(unknownInstance.status).toBe(404)
    expect(unknownInstance.body).toMatchObject({ valid: false, error: 'license_key instance not found.' })
  })

  it('a key expires its validity days after the sale', async () => {
    const productId = await licensedProduct(t, { limit: 5, days: 1 })
    const { keys } = await buyKeys(t, productId)
    const key = keys[0]!
    const before = await call('validate', { license_key: key })
    const created = Date.parse((before.body.license_key as { created_at: string }).created_at)
    const expires = Date.parse((before.body.license_key as { expires_at: string }).expires_at)
    expect(expires - created).toBe(86_400_000)
    expect(before.body).toMatchObject({ valid: true, license_key: { status: 'inactive' } })
    // A day and a second later: the sale moved back instead of the clock forward.
    await t.database.db.execute(
      sql`update license_keys set assigned_at = assigned_at - interval '1 day 1 second', expires_at = expires_at - interval '1 day 1 second' where key = ${key}`,
    )
    const after = await call('validate', { license_key: key })
    expect(after.status).toBe(200)
    expect(after.body).toMatchObject({
      valid: false,
      error: 'This license key has expired.',
      license_key: { status: 'expired' },
      license_token: null,
    })
    const activate = await call('activate', { license_key: key, instance_name: 'Late' })
    expect(activate.status).toBe(400)
    expect(activate.body).toMatchObject({ activated: false, error: 'This license key has expired.' })
  })

  it('the keys of a cancelled order are disabled everywhere', async () => {
    const productId = await licensedProduct(t, { limit: 3, days: null })
    const { keys, orderId } = await buyKeys(t, productId)
    const key = keys[0]!
    const activated = await call('activate', { license_key: key, instance_name: 'Laptop' })
    const instanceId = (activated.body.instance as { id: string }).id
    await updateOrderStatus(t.database.db, orderId, 'cancelled', t.app.services.rules)
    const validate = await call('validate', { license_key: key, instance_id: instanceId })
    expect(validate.body).toMatchObject({
      valid: false,
      error: 'This license key is disabled.',
      license_key: { status: 'disabled' },
      license_token: null,
    })
    const activate = await call('activate', { license_key: key, instance_name: 'Other' })
    expect(activate).toMatchObject({
      status: 400,
      body: { activated: false, error: 'This license key is disabled.' },
    })
    const deactivate = await call('deactivate', { license_key: key, instance_id: instanceId })
    expect(deactivate).toMatchObject({
      status: 400,
      body: { deactivated: false, error: 'This license key is disabled.' },
    })
    const disabled = (await events('license_key.disabled')).filter((e) => e.order_id === orderId)
    expect(disabled).toMatchObject([{ reason: 'cancelled' }])
  })

  it('a wrong key answers exactly as an unknown one: stock, reserved and made-up keys alike', async () => {
    const productId = await licensedProduct(t, { limit: 1, days: null })
    await t.database.db.insert(licenseKeys).values([
      { productId, key: 'STOCK-AAAAA-BBBBB-00001' },
      { productId, key: 'STOCK-AAAAA-BBBBB-00002' },
    ])
    // Stock only: the pending order below holds the first stock key (reserved, not sold).
    await t.database.db.execute(sql`update products set delivery_mode = 'stock_only' where id = ${productId}`)
    await addWalletAddresses(t.database.db, testAddresses(1, 'licence-reserved'))
    const pending = await rpc(t.app, 'secure_create_order', {
      p_email: 'pending@example.com',
      p_items: [{ product: { id: productId }, quantity: 1 }],
      p_total: 10,
    })
    expect(pending.body.success).toBe(true)
    const reserved = (await t.database.db.execute(
      sql`select key from license_keys where reserved_order_id = ${pending.body.order_id as string}`,
    )) as unknown as { rows: { key: string }[] }
    expect(reserved.rows).toEqual([{ key: 'STOCK-AAAAA-BBBBB-00001' }])
    const candidates = ['STOCK-AAAAA-BBBBB-00001', 'NEVER-MADE-00000-00000', 'STOCK-AAAAA-BBBBB-00002', 'x']
    for (const verb of ['validate', 'activate', 'deactivate'] as const) {
      const answers = await Promise.all(
        candidates.map((key) =>
          call(verb, {
            license_key: key,
            instance_name: 'Laptop',
            instance_id: '00000000-0000-4000-8000-000000000000',
          }),
        ),
      )
      for (const answer of answers) {
        expect(answer.status).toBe(404)
        expect(answer.body).toEqual(answers[1]!.body)
      }
      expect(answers[1]!.body).toMatchObject({
        error: 'license_key not found.',
        license_key: null,
        meta: null,
      })
    }
  })

  it('every bad field is a 400 naming it, and nothing a client sends is a 500', async () => {
    const cases: [string, Record<string, unknown> | string, 'form' | 'json', string][] = [
      ['activate', { instance_name: 'A' }, 'form', 'license_key'],
      ['activate', { license_key: 'K' }, 'form', 'instance_name'],
      ['activate', { license_key: 'K', instance_name: 'x'.repeat(300) }, 'json', 'instance_name'],
      ['activate', { license_key: 12345, instance_name: 'A' }, 'json', 'license_key'],
      ['validate', {}, 'json', 'license_key'],
      ['validate', { license_key: 'K', instance_id: 'not-a-uuid' }, 'form', 'instance_id'],
      ['validate', { license_key: ['a', 'b'] }, 'json', 'license_key'],
      ['deactivate', { license_key: 'K' }, 'form', 'instance_id'],
      ['deactivate', { license_key: 'K', instance_id: { $ne: 1 } }, 'json', 'instance_id'],
    ]
    for (const [verb, fields, as, named] of cases) {
      const answer = await call(verb as 'activate', fields as Record<string, unknown>, as)
      expect(answer.status, `${verb} ${JSON.stringify(fields)}`).toBe(400)
      expect(answer.body.error).toContain(named)
    }
    const raw = async (body: string, contentType: string) => {
      const response = await fetch(`${base}/v1/licenses/validate`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
      })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    }
    expect(await raw('{not json', 'application/json')).toMatchObject({ status: 400, body: { valid: false } })
    expect(await raw('[1,2]', 'application/json')).toMatchObject({ status: 400, body: { valid: false } })
    expect((await raw('license_key=a%00b', 'application/x-www-form-urlencoded')).status).toBe(400)
    expect((await raw('<xml/>', 'application/xml')).status).toBe(415)
  })

  it('50 concurrent activations of a key with a limit of 1 give exactly one', async () => {
    const productId = await licensedProduct(t, { limit: 1, days: null })
    const { keys } = await buyKeys(t, productId)
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call('activate', { license_key: keys[0]!, instance_name: `Machine ${i}` }),
      ),
    )
    expect(answers.filter((a) => a.status === 200 && a.body.activated === true)).toHaveLength(1)
    const refused = answers.filter((a) => a.status !== 200)
    expect(refused).toHaveLength(49)
    for (const a of refused) expect(a.body.error).toBe('This license key has reached the activation limit.')
    const result = (await t.database.db.execute(
      sql`select count(*)::int as n from license_instances i join license_keys k on k.id = i.license_key_id where k.key = ${keys[0]!}`,
    )) as unknown as { rows: { n: number }[] }
    expect(result.rows[0]!.n).toBe(1)
  })
})

describe.each(engines)('licence API rate limits on %s', (engine) => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(engine, { LICENCE_RATE_PER_CLIENT: '6', LICENCE_RATE_PER_KEY: '3' })
  })
  afterAll(() => t.close())

  const validate = (key: string, remoteAddress: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/licenses/validate',
      payload: { license_key: key },
      remoteAddress,
    })

  it('limits each key and each client (an IPv6 client by its /64) with 429 and Retry-After', async () => {
    const productId = await licensedProduct(t, { limit: 1, days: null })
    const { keys } = await buyKeys(t, productId)
    // Per key: the fourth call on one key within the minute, from different clients.
    const perKey = []
    for (let i = 0; i < 4; i++) perKey.push(await validate(keys[0]!, `198.51.100.${i + 1}`))
    expect(perKey.slice(0, 3).map((r) => r.statusCode)).toEqual([200, 200, 200])
    expect(perKey[3]!.statusCode).toBe(429)
    expect(Number(perKey[3]!.headers['retry-after'])).toBeGreaterThan(0)
    expect(perKey[3]!.json()).toMatchObject({ valid: false, error: 'Too many requests. Try again later.' })
    // An unknown key is limited the same way: a 429 says nothing about whether a key exists.
    const unknown = []
    for (let i = 0; i < 4; i++) unknown.push(await validate('UNKNOWN-KEY', `198.51.100.${i + 10}`))
    expect(unknown.map((r) => r.statusCode)).toEqual([404, 404, 404, 429])

    // Per client: six calls from one /64 (different addresses in it), the seventh refused.
    const same64 = []
    for (let i = 0; i < 7; i++) same64.push(await validate(`KEY-${i}`, `2001:db8:1:2::${i + 1}`))
    expect(same64.slice(0, 6).every((r) => r.statusCode === 404)).toBe(true)
    expect(same64[6]!.statusCode).toBe(429)
    expect(Number(same64[6]!.headers['retry-after'])).toBeGreaterThan(0)
    // Another /64 is another client.
    expect((await validate('KEY-X', '2001:db8:1:3::1')).statusCode).toBe(404)
  })
})
