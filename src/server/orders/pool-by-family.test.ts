import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { getAddress } from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type Anvil, spawnAnvil } from '../../../tests/support/evm/anvil'
import { deployStablecoin, USDT_18 } from '../../../tests/support/evm/tokens'
import { testAddresses } from '../../../tests/support/test-addresses'
import { adminSession, createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { createTestDatabase, engines } from '../../../tests/support/test-db'
import type { ChainId } from '../../shared/chains'
import { messages } from '../../shared/checkout'
import type { SalesAnswer } from '../../shared/cockpit'
import { operatorAlerts } from '../db/schema'
import { seedOnce } from '../db/seed'
import { checkHealth } from '../notifications/notifier'
import { loadSettings, saveSettings } from '../settings/settings'
import { addWalletAddresses } from '../wallets/wallets.repo'
import { checkoutMessages } from './checkout-limits'

// The pool by family (migration 0035): an order leases an address of its chain's family, so the
// pool guard weighs that family's free addresses and reserve, and the health figures and the
// operator's alert show each family apart. TRON beside BNB Smart Chain on a real Anvil node.

const METRICS = 'pool-by-family-metrics-token'

const evmAddresses = (n: number) =>
  Array.from({ length: n }, () => ({
    address: getAddress(`0x${randomBytes(20).toString('hex')}`),
    family: 'evm' as const,
  }))

describe.each(engines)('the pool by family on %s', (engine) => {
  let t: TestApp
  let anvil: Anvil
  let product: { id: number; price: number }
  let n = 0

  beforeAll(async () => {
    anvil = await spawnAnvil({ chainId: 56 })
    const usdt = await deployStablecoin(anvil, USDT_18)
    const database = await createTestDatabase(engine, { poolSize: 10 })
    await seedOnce(database.db)
    t = await createTestApp(
      engine,
      {
        TRON_API_URL: 'http://127.0.0.1:9',
        TRUST_PROXY: 'true',
        METRICS_TOKEN: METRICS,
        ADMIN_PASSWORD: 'pool-by-family-Password-1',
        CHECKOUT_PENDING_PER_CLIENT: '5',
        CHECKOUT_PENDING_PER_EMAIL: '3',
        CHECKOUT_CREATIONS_PER_MINUTE: '1000',
        CHECKOUT_HELD_PER_NETWORK: '3',
        CHECKOUT_RESERVE_PERCENT: '50',
        EVM_BSC_ENABLED: 'true',
        EVM_BSC_PROVIDER_1_URL: anvil.url,
        EVM_BSC_TOKENS: JSON.stringify([{ symbol: 'USDT', contract: usdt, decimals: 18 }]),
      },
      { database },
    )
    const rows = (await t.database.db.execute(
      sql`select id, price_cents from products where not is_free and price_cents > 0 order by price_cents, id limit 1`,
    )) as unknown as { rows: { id: number; price_cents: number }[] }
    const row = rows.rows[0] as { id: number; price_cents: number }
    product = { id: row.id, price: row.price_cents / 100 }
    // The operator reads alerts by e-mail; the pool alert is on.
    const settings = await loadSettings(t.database.db)
    await saveSettings(t.database.db, {
      ...settings,
      operatorEmail: 'ops@example.com',
      alerts: { ...settings.alerts, pool_low: true },
    })
  })
  afterAll(async () => {
    await t?.close()
    await anvil?.stop()
  })

  beforeEach(async () => {
    await t.database.db.execute(sql`delete from orders`)
    await t.database.db.execute(sql`delete from address_leases`)
    await t.database.db.execute(sql`delete from wallet_addresses`)
    await t.database.db.execute(sql`delete from operator_alerts`)
  })

  /** A checkout from `ip` on `chain` (USDT), through HTTP as a buyer behind the proxy. */
  async function order(ip: string, chain: ChainId) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/rpc/secure_create_order',
      headers: { 'x-forwarded-for': ip },
      payload: {
        p_email: `family${n++}@example.com`,
        p_items: [{ product: { id: product.id }, quantity: 1 }],
        p_total: product.price,
        p_chain: chain,
        p_token: 'USDT',
      },
    })
    expect(res.statusCode).toBe(200)
    return res.json() as Record<string, unknown>
  }

  it('an exhausted EVM pool refuses EVM checkouts with the clear message while TRON ones go on; the health and the alert name EVM', async () => {
    await addWalletAddresses(t.database.db, testAddresses(10, `tron-plenty-${engine}`))
    await addWalletAddresses(t.database.db, evmAddresses(1))
    expect(await order('203.0.113.1', 'bsc')).toMatchObject({ success: true })
    // The one EVM address is taken: ten free TRON addresses do not help an EVM order.
    expect(await order('198.51.100.1', 'bsc')).toEqual({ success: false, error: messages.unavailable })
    const tron = await order('192.0.2.1', 'tron')
    expect(tron).toMatchObject({ success: true, wallet_address: expect.stringMatching(/^T/) })

    // The health figures: each family apart.
    expect(await t.app.services.health.addressPools()).toMatchObject([
      { family: 'tron', free: 9, leased: 1, total: 10 },
      { family: 'evm', free: 0, leased: 1, total: 1, hoursToDry: 0 },
    ])
    const sales = await rpc(t.app, 'secure_fetch_sales', {}, await adminSession(t))
    expect((sales.body as unknown as SalesAnswer).health.pools).toMatchObject([
      { family: 'tron', addresses: { free: 9, leased: 1, total: 10 }, pool_warning: false },
      { family: 'evm', addresses: { free: 0, leased: 1, total: 1 }, pool_warning: true },
    ])
    // The operator's alert names the family that runs low, and only that one.
    const health = { ...t.app.services.health, providers: async () => ({ failingSince: null, list: [] }) }
    expect(await checkHealth(t.database.db, health)).toEqual(['pool_low'])
    const alerts = await t.database.db.select().from(operatorAlerts)
    expect(alerts.map((a) => [a.subjectKey, a.text])).toEqual([
      [
        'pool|evm',
        'EVM address pool running low: 0 of 1 addresses free (0 %). Add EVM addresses on the Wallets tab.',
      ],
    ])
    // The metrics: free addresses per family beside the pool's total.
    const metrics = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS}` },
    })
    expect(metrics.statusCode).toBe(200)
    expect(metrics.body).toContain('stablecart_wallet_addresses_free_by_family{family="evm"} 0')
    expect(metrics.body).toContain('stablecart_wallet_addresses_free_by_family{family="tron"} 9')
    expect(metrics.body).toMatch(/^stablecart_wallet_addresses_free 9$/m)
  })

  it("the reserve is the family's: a network holding EVM addresses stops at EVM's reserve, whatever TRON has free", async () => {
    await addWalletAddresses(t.database.db, testAddresses(20, `tron-reserve-${engine}`))
    await addWalletAddresses(t.database.db, evmAddresses(4))
    // EVM's reserve is 2 of 4. One network takes two (4 → 2 free), then no more EVM ones: counted
    // with TRON's, 22 of 24 would be free and far above a reserve of 12.
    expect(await order('203.0.113.1', 'bsc')).toMatchObject({ success: true })
    expect(await order('203.0.113.2', 'bsc')).toMatchObject({ success: true })
    expect(await order('203.0.113.3', 'bsc')).toEqual({ success: false, error: checkoutMessages.networkBusy })
    // The same network may still take a TRON address: TRON's pool is far from its reserve.
    expect(await order('203.0.113.4', 'tron')).toMatchObject({ success: true })
    // A network holding none takes from the EVM reserve, down to the last address.
    expect(await order('198.51.100.1', 'bsc')).toMatchObject({ success: true })
    expect(await order('100.64.0.1', 'bsc')).toMatchObject({ success: true })
    expect(await order('100.64.1.1', 'bsc')).toEqual({ success: false, error: messages.unavailable })
  })

  it("a network's share of held addresses is per family: three TRON ones leave its EVM share whole", async () => {
    await addWalletAddresses(t.database.db, testAddresses(20, `tron-share-${engine}`))
    await addWalletAddresses(t.database.db, evmAddresses(20))
    // CHECKOUT_HELD_PER_NETWORK is 3: one network (203.0.113.0/24, three clients) takes three TRON addresses.
    for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3'])
      expect(await order(ip, 'tron')).toMatchObject({ success: true })
    expect(await order('203.0.113.4', 'tron')).toEqual({
      success: false,
      error: checkoutMessages.networkBusy,
    })
    // Its share of the EVM pool is untouched: three EVM addresses, then the same limit there.
    for (const ip of ['203.0.113.4', '203.0.113.5', '203.0.113.6'])
      expect(await order(ip, 'bsc')).toMatchObject({ success: true })
    expect(await order('203.0.113.7', 'bsc')).toEqual({ success: false, error: checkoutMessages.networkBusy })
  })

  it("and the other way round: TRON's reserve holds while EVM has plenty free", async () => {
    await addWalletAddresses(t.database.db, testAddresses(4, `tron-scarce-${engine}`))
    await addWalletAddresses(t.database.db, evmAddresses(20))
    expect(await order('203.0.113.1', 'tron')).toMatchObject({ success: true })
    expect(await order('203.0.113.2', 'tron')).toMatchObject({ success: true })
    expect(await order('203.0.113.3', 'tron')).toEqual({
      success: false,
      error: checkoutMessages.networkBusy,
    })
    expect(await order('203.0.113.4', 'bsc')).toMatchObject({ success: true })
    // TRON's alert, under the subject it always had, names TRON now that EVM's pool is shown too.
    await t.database.db.execute(sql`
      update wallet_addresses set cooldown_until = now() + interval '1 hour'
      where family = 'tron' and leased_order_id is null`)
    const health = { ...t.app.services.health, providers: async () => ({ failingSince: null, list: [] }) }
    expect(await checkHealth(t.database.db, health)).toEqual(['pool_low'])
    const [alert] = await t.database.db.select().from(operatorAlerts)
    expect(alert).toMatchObject({
      subjectKey: 'pool',
      text: 'TRON address pool running low: 0 of 4 addresses free (0 %). Add TRON addresses on the Wallets tab.',
    })
  })
})
