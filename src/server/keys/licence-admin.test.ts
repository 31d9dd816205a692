import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buyKeys, licensedProduct } from '../../../tests/support/licence-fixture'
import { adminSession, createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import type { AuditEntry } from '../../shared/cockpit'
import type { AdminLicence } from '../../shared/licences'
import { products, webhookEndpoints } from '../db/schema'

describe.each(engines)("buyers' seats and the operator's Licences view on %s", (engine) => {
  let t: TestApp
  let admin: Record<string, string>

  beforeAll(async () => {
    t = await createTestApp(engine, {
      PUBLIC_URL: 'https://shop.example',
      ADMIN_PASSWORD: 'licence-admin-password',
      LICENCE_RATE_PER_CLIENT: '100000',
      LICENCE_RATE_PER_KEY: '100000',
    })
    admin = await adminSession(t)
    await t.database.db.insert(webhookEndpoints).values({
      url: 'http://127.0.0.1:9/hook',
      events: ['license_key.disabled', 'license_key.deactivated'],
      secret: 's',
    })
  }, 120_000)
  afterAll(() => t.close())

  const api = async (verb: string, payload: Record<string, string>) => {
    const response = await t.app.inject({ method: 'POST', url: `/v1/licenses/${verb}`, payload })
    return response.json() as Record<string, unknown>
  }
  const dashboard = async (token: string) => {
    const answer = await rpc(t.app, 'secure_fetch_dashboard', { p_access_token: token })
    return (answer.body.order as { items: { licences: Record<string, unknown>[] }[] }).items[0]!.licences
  }
  const audit = async (action: string) =>
    (await rpc(t.app, 'secure_fetch_audit_log', { p_action: action }, admin)).body.entries as AuditEntry[]

  it('the dashboard lists each key’s activations and the buyer frees a seat; no other order can', async () => {
    const productId = await licensedProduct(t, { limit: 2, days: null })
    const mine = await buyKeys(t, productId)
    const theirs = await buyKeys(t, productId)
    const laptop = await api('activate', { license_key: mine.keys[0]!, instance_name: 'Laptop' })
    const instanceId = (laptop.instance as { id: string }).id
    expect(await dashboard(mine.accessToken)).toMatchObject([
      {
        key: mine.keys[0],
        status: 'active',
        activation_limit: 2,
        activation_usage: 1,
        instances: [{ id: instanceId, name: 'Laptop' }],
      },
    ])
    // Another order's dashboard cannot free it, nor can a made-up activation id.
    for (const [token, id] of [
      [theirs.accessToken, instanceId],
      [mine.accessToken, randomUUID()],
    ] as const) {
      const refused = await rpc(t.app, 'secure_deactivate_seat', { p_access_token: token, p_instance_id: id })
      expect(refused.body).toEqual({
        success: false,
        error: 'This activation was not found: it may already be deactivated',
      })
    }
    const bad = await rpc(t.app, 'secure_deactivate_seat', {
      p_access_token: mine.accessToken,
      p_instance_id: 'x',
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toContain('p_instance_id')
    const freed = await rpc(t.app, 'secure_deactivate_seat', {
      p_access_token: mine.accessToken,
      p_instance_id: instanceId,
    })
    expect(freed.body).toEqual({ success: true })
    expect(await dashboard(mine.accessToken)).toMatchObject([
      { status: 'inactive', activation_usage: 0, instances: [] },
    ])
    expect(await api('validate', { license_key: mine.keys[0]!, instance_id: instanceId })).toMatchObject({
      valid: false,
      error: 'license_key instance not found.',
    })
    const events = (await t.database.db.execute(
      sql`select body from webhook_deliveries where event_type = 'license_key.deactivated'`,
    )) as unknown as { rows: { body: string }[] }
    expect(events.rows.map((r) => JSON.parse(r.body).data)).toContainEqual(
      expect.objectContaining({
        order_id: mine.orderId,
        by: 'buyer',
        instance: { id: instanceId, name: 'Laptop' },
      }),
    )
  })

  it('the operator finds keys by key, e-mail or order and disables, enables, resets and changes them, audited', async () => {
    const productId = await licensedProduct(t, { limit: 1, days: null, name: 'Operator App' })
    const bought = await buyKeys(t, productId)
    const key = bought.keys[0]!
    const search = async (q: string) =>
      (await rpc(t.app, 'secure_fetch_licences', { p_search: q }, admin)).body.licences as AdminLicence[]
    for (const q of [key, key.slice(-5).toLowerCase(), bought.email.toUpperCase(), bought.orderId]) {
      expect(
        (await search(q)).map((l) => l.key),
        q,
      ).toEqual([key])
    }
    expect(await search('nobody@example.com')).toEqual([])
    const [found] = await search(key)
    expect(found).toMatchObject({
      product_name: 'Operator App',
      order_id: bought.orderId,
      status: 'inactive',
    })
    const id = found!.id

    await api('activate', { license_key: key, instance_name: 'Office PC' })
    expect(
      (await rpc(t.app, 'secure_set_licence_disabled', { p_key_id: id, p_disabled: true }, admin)).body,
    ).toEqual({
      success: true,
    })
    expect(await api('validate', { license_key: key })).toMatchObject({
      valid: false,
      license_key: { status: 'disabled' },
    })
    expect((await search(key))[0]).toMatchObject({ status: 'disabled', disabled_by_operator: true })
    const disabledEvents = (await t.database.db.execute(
      sql`select body from webhook_deliveries where event_type = 'license_key.disabled'`,
    )) as unknown as { rows: { body: string }[] }
    expect(disabledEvents.rows.map((r) => JSON.parse(r.body).data)).toContainEqual(
      expect.objectContaining({ license_key_id: id, reason: 'operator' }),
    )
    await rpc(t.app, 'secure_set_licence_disabled', { p_key_id: id, p_disabled: false }, admin)
    expect(await api('validate', { license_key: key })).toMatchObject({
      valid: true,
      license_key: { status: 'active' },
    })

    // The limit is 1 and used: a reset frees it, a new limit of 3 lets two more in.
    expect((await api('activate', { license_key: key, instance_name: 'Second' })).activated).toBe(false)
    const reset = await rpc(t.app, 'secure_reset_licence_activations', { p_key_id: id }, admin)
    expect(reset.body).toEqual({ success: true, freed: 1 })
    const expires = '2099-12-31T00:00:00.000Z'
    const terms = await rpc(
      t.app,
      'secure_set_licence_terms',
      { p_key_id: id, p_activation_limit: 3, p_expires_at: expires },
      admin,
    )
    expect(terms.body).toEqual({ success: true })
    for (const name of ['A', 'B', 'C'])
      expect((await api('activate', { license_key: key, instance_name: name })).activated).toBe(true)
    expect(await api('validate', { license_key: key })).toMatchObject({
      license_key: { activation_limit: 3, activation_usage: 3, expires_at: expires },
    })

    // Bad input is a 400 naming the field; an unknown key is said so; nothing changed.
    const bad = await rpc(
      t.app,
      'secure_set_licence_terms',
      { p_key_id: id, p_activation_limit: 0, p_expires_at: null },
      admin,
    )
    expect(bad.status).toBe(400)
    expect(bad.body.error).toContain('p_activation_limit')
    const unknown = await rpc(t.app, 'secure_reset_licence_activations', { p_key_id: 2_000_000_000 }, admin)
    expect(unknown.body).toEqual({ success: false, error: 'Licence key 2000000000 not found' })
    expect((await rpc(t.app, 'secure_fetch_licences', { p_search: key })).status).toBe(401)

    expect((await audit('licence_disable')).map((e) => e.target)).toContain(String(id))
    expect((await audit('licence_enable')).map((e) => e.target)).toContain(String(id))
    expect(await audit('licence_reset')).toMatchObject([{ target: String(id), details: { freed: 1 } }])
    expect(await audit('licence_terms')).toMatchObject([
      { target: String(id), details: { activation_limit: 3, expires_at: expires } },
    ])
    // The audit log never holds a licence key.
    const log = JSON.stringify((await rpc(t.app, 'secure_fetch_audit_log', {}, admin)).body)
    expect(log).not.toContain(key)

    const rotated = await rpc(t.app, 'secure_rotate_licence_signing_key', {}, admin)
    expect(rotated.body).toMatchObject({ success: true })
    const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json() as {
      keys: { kid: string }[]
    }
    expect(jwks.keys[0]!.kid).toBe(rotated.body.kid)
    expect(await audit('licence_signing_rotate')).toMatchObject([{ details: { kid: rotated.body.kid } }])
  })

  it('the Stock tab sets a product’s activation limit and validity; keys sold afterwards carry them', async () => {
    const productId = await licensedProduct(t, { limit: null, days: null })
    const saved = await rpc(
      t.app,
      'secure_update_stock_settings',
      {
        p_product_id: productId,
        p_delivery_mode: 'stock_then_generated',
        p_low_stock_threshold: null,
        p_licence_activation_limit: 4,
        p_licence_validity_days: 365,
      },
      admin,
    )
    expect(saved.body).toEqual({ success: true })
    const [row] = await t.database.db.select().from(products).where(eq(products.id, productId))
    expect(row).toMatchObject({ licenceActivationLimit: 4, licenceValidityDays: 365 })
    const sales = await rpc(t.app, 'secure_fetch_sales', {}, admin)
    const stock = (sales.body.stock as { product_id: number }[]).find((s) => s.product_id === productId)
    expect(stock).toMatchObject({ licence_activation_limit: 4, licence_validity_days: 365 })
    const { keys } = await buyKeys(t, productId)
    const answer = await api('validate', { license_key: keys[0]! })
    const licence = answer.license_key as { activation_limit: number; created_at: string; expires_at: string }
    expect(licence.activation_limit).toBe(4)
    expect(Date.parse(licence.expires_at) - Date.parse(licence.created_at)).toBe(365 * 86_400_000)
    const bad = await rpc(
      t.app,
      'secure_update_stock_settings',
      {
        p_product_id: productId,
        p_delivery_mode: 'stock_then_generated',
        p_low_stock_threshold: null,
        p_licence_validity_days: 0,
      },
      admin,
    )
    expect(bad.status).toBe(400)
    expect(bad.body.error).toContain('p_licence_validity_days')
  })
})
