import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createPaymentFixture, type PaymentFixture } from '../../../tests/support/payment-fixture'
import { testAddresses } from '../../../tests/support/test-addresses'
import { createTestApp, type TestApp } from '../../../tests/support/test-app'
import { createTestDatabase, engines } from '../../../tests/support/test-db'
import { messages } from '../../shared/checkout'
import { seedOnce } from '../db/seed'
import { clientNetworkKey } from '../lib/client-address'
import { addWalletAddresses } from '../wallets/wallets.repo'
import { checkoutMessages } from './checkout-limits'

type Body = Record<string, unknown>

/**
 * Places an order as a client at `ip` (the app trusts the proxy header, as behind a reverse proxy).
 * Answers the body and the browser's checkout cookie, as its next request would carry it.
 */
async function checkout(
  t: TestApp,
  product: { id: number; price: number },
  ip: string,
  email: string,
  cookie?: string,
) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/rpc/secure_create_order',
    headers: { 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) },
    payload: {
      p_email: email,
      p_items: [{ product: { id: product.id }, quantity: 1 }],
      p_total: product.price,
    },
  })
  expect(res.statusCode).toBe(200)
  return { body: res.json() as Body, jar: String([res.headers['set-cookie']].flat()[0] ?? '').split(';')[0] }
}

async function order(t: TestApp, product: { id: number; price: number }, ip: string, email: string) {
  return (await checkout(t, product, ip, email)).body
}

async function cheapest(t: TestApp) {
  const rows = (await t.database.db.execute(
    sql`select id, price_cents from products where not is_free and price_cents > 0 order by price_cents, id limit 1`,
  )) as unknown as { rows: { id: number; price_cents: number }[] }
  const row = rows.rows[0] as { id: number; price_cents: number }
  return { id: row.id, price: row.price_cents / 100 }
}

describe.each(engines)('the pool guard on %s', (engine) => {
  let t: TestApp
  let product: { id: number; price: number }
  let n = 0
  const email = () => `guard${n++}@example.com`

  beforeAll(async () => {
    const database = await createTestDatabase(engine, { poolSize: 20 })
    await seedOnce(database.db)
    t = await createTestApp(
      engine,
      {
        TRUST_PROXY: 'true',
        CHECKOUT_PENDING_PER_CLIENT: '5',
        CHECKOUT_PENDING_PER_EMAIL: '3',
        CHECKOUT_CREATIONS_PER_MINUTE: '1000',
        CHECKOUT_HELD_PER_NETWORK: '3',
        CHECKOUT_RESERVE_PERCENT: '50',
      },
      { database },
    )
    product = await cheapest(t)
  })
  afterAll(() => t.close())

  beforeEach(async () => {
    await t.database.db.execute(sql`delete from orders`)
    await t.database.db.execute(sql`delete from address_leases`)
    await t.database.db.execute(sql`delete from wallet_addresses`)
  })

  const held = async () => {
    const r = (await t.database.db.execute(
      sql`select count(*)::int as n from wallet_addresses
          where leased_order_id is not null or cooldown_until > now()`,
    )) as unknown as { rows: { n: number }[] }
    return r.rows[0]?.n ?? 0
  }

  it('counts a network by its /24 or /48, cooling addresses of unpaid orders included', async () => {
    await addWalletAddresses(t.database.db, testAddresses(40, 'network'))
    // Three clients of one /24 fill its share; a fourth client of that /24 is refused.
    for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
      expect((await order(t, product, ip, email())).success).toBe(true)
    }
    const refused = await order(t, product, '203.0.113.4', email())
    expect(refused).toEqual({ success: false, error: checkoutMessages.networkBusy })
    // Cancelling frees the client's payment window, not the address: it cools down and still counts.
    const [placed] = (
      (await t.database.db.execute(
        sql`select id from orders where status = 'pending' order by created_at limit 1`,
      )) as unknown as { rows: { id: string }[] }
    ).rows
    await t.database.db.execute(sql`update orders set secret_hash = null where id = ${placed?.id as string}`)
    const cancel = await t.app.inject({
      method: 'POST',
      url: '/rpc/secure_cancel_order',
      payload: { p_order_id: placed?.id },
    })
    expect(cancel.json()).toEqual({ success: true })
    expect((await order(t, product, '203.0.113.5', email())).error).toBe(checkoutMessages.networkBusy)
    // Another /24 is another network.
    expect((await order(t, product, '203.0.114.1', email())).success).toBe(true)
    // IPv6: one /48, whatever the /64.
    for (const ip of ['2001:db8:5:1::1', '2001:db8:5:2::1', '2001:db8:5:3::1']) {
      expect((await order(t, product, ip, email())).success).toBe(true)
    }
    expect((await order(t, product, '2001:db8:5:4::1', email())).error).toBe(checkoutMessages.networkBusy)
    expect((await order(t, product, '2001:db8:6::1', email())).success).toBe(true)
    expect(await held()).toBe(8)
  })

  it('requests placed together are counted one after the other', async () => {
    await addWalletAddresses(t.database.db, testAddresses(40, 'together'))
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => order(t, product, `198.51.100.${i + 1}`, email())),
    )
    expect(answers.filter((a) => a.success === true)).toHaveLength(3)
    expect(answers.filter((a) => a.error === checkoutMessages.networkBusy)).toHaveLength(9)
    expect(await held()).toBe(3)
  })

  it('keeps the last half of the pool for networks holding none', async () => {
    await addWalletAddresses(t.database.db, testAddresses(10, 'reserve'))
    // One network takes its share while more than half the pool is free…
    for (const ip of ['203.0.113.1', '203.0.113.2']) {
      expect((await order(t, product, ip, email())).success).toBe(true)
    }
    // …a second takes three (8 → 5 free), then no more: 5 free is the reserve.
    for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      expect((await order(t, product, ip, email())).success).toBe(true)
    }
    expect((await order(t, product, '203.0.113.3', email())).error).toBe(checkoutMessages.networkBusy)
    // Every network holding nothing still gets one, down to the last address.
    for (let i = 1; i <= 5; i++) {
      expect((await order(t, product, `100.64.${i}.1`, email())).success).toBe(true)
    }
    expect(await order(t, product, '100.65.0.1', email())).toEqual({
      success: false,
      error: messages.unavailable,
    })
  })

  it('a returning browser keeps its address in the reserve, but only from the client that placed it', async () => {
    await addWalletAddresses(t.database.db, testAddresses(10, 'returning'))
    // 203.0.113.0/24 holds one, 198.51.100.0/24 three, 192.0.2.0/24 one: 5 free, the reserve.
    expect((await order(t, product, '203.0.113.1', email())).success).toBe(true)
    for (const host of [1, 2, 3]) {
      expect((await order(t, product, `198.51.100.${host}`, email())).success).toBe(true)
    }
    expect((await order(t, product, '192.0.2.1', email())).success).toBe(true)
    // A buyer from a network holding none takes one from the reserve…
    const first = await checkout(t, product, '100.64.0.1', email())
    expect(first.body.success).toBe(true)
    // …and starting again from the same browser and client keeps it, though the pool is scarce.
    const again = await checkout(t, product, '100.64.0.1', email(), first.jar)
    expect(again.body).toMatchObject({ success: true, wallet_address: first.body.wallet_address })
    // That browser's cookie used from a network holding one is weighed like any request: refused.
    const moved = await checkout(t, product, '203.0.113.2', email(), first.jar)
    expect(moved.body.error).toBe(checkoutMessages.networkBusy)
    const holder = (await t.database.db.execute(
      sql`select count(*)::int as n from wallet_addresses where leased_order_id is not null`,
    )) as unknown as { rows: { n: number }[] }
    expect(holder.rows[0]?.n).toBe(5)
  })

  it('a real buyer gets an address while every attacking network is at its limit', async () => {
    // 10 attacking networks against a pool of 20, each taking all it may, one network after the
    // other (the order that leaves the least: decision 021 works it out), five clients at once.
    await addWalletAddresses(t.database.db, testAddresses(20, 'attack'))
    let attackers = 0
    for (let net = 0; net < 10; net++) {
      const answers = await Promise.all(
        Array.from({ length: 5 }, (_, host) => order(t, product, `10.0.${net}.${host + 1}`, email())),
      )
      attackers += answers.filter((a) => a.success === true).length
      expect(
        answers.filter((a) => a.success !== true).every((a) => a.error === checkoutMessages.networkBusy),
      ).toBe(true)
    }
    // The first 10 addresses went to 4 networks (3 each, the 4th with 1), the reserve of 10 to the
    // 6 others (one each): 16 held, 4 left.
    expect(attackers).toBe(16)
    const buyer = await order(t, product, '192.0.2.10', 'real@example.com')
    expect(buyer).toMatchObject({ success: true, wallet_address: expect.any(String) })
  })
})

describe.each(engines)('leasing and paid orders on %s', (engine) => {
  let f: PaymentFixture

  beforeAll(async () => {
    f = await createPaymentFixture(engine, {
      pool: 4,
      env: { TRUST_PROXY: 'true', CHECKOUT_HELD_PER_NETWORK: '3' },
    })
  })
  afterAll(() => f.close())

  it('a paid order no longer counts against its network; leases take the address idle longest', async () => {
    const [o1, o2, o3] = [await f.placeOrder(), await f.placeOrder(), await f.placeOrder()]
    if (!o1 || !o2 || !o3) throw new Error('orders not placed')
    await expect(f.placeOrder()).rejects.toThrow(checkoutMessages.networkBusy)
    await f.pay({ to: o1.address, amount: o1.total.toFixed(2) })
    expect((await f.order(o1.id)).status).toBe('paid')
    // Its address still rests, but the network paid for it.
    const o4 = await f.placeOrder()

    // The three unpaid orders end, o3's first; then their cool-downs pass, in the same order.
    for (const o of [o3, o2, o4]) {
      const res = await f.t.app.inject({
        method: 'POST',
        url: '/rpc/secure_cancel_order',
        payload: { p_order_id: o.id, p_order_secret: f.secretOf(o.id) },
      })
      expect(res.json()).toEqual({ success: true })
    }
    await f.rows(sql`update wallet_addresses set cooldown_until = cooldown_until - interval '3 hours'`)
    await f.rows(sql`update address_leases set cooldown_until = cooldown_until - interval '3 hours'`)
    // A buyer re-sends to o2's old address from their wallet history.
    await f.pay({ to: o2.address, amount: '1.00' })

    const leased: string[] = []
    for (let i = 0; i < 4; i++) {
      const res = await f.t.app.inject({
        method: 'POST',
        url: '/rpc/secure_create_order',
        headers: { 'x-forwarded-for': `198.51.${100 + i}.1` },
        payload: {
          p_email: `idle${i}@example.com`,
          p_items: [{ product: { id: f.products[0]?.id }, quantity: 1 }],
          p_total: f.products[0]?.price,
        },
      })
      leased.push(res.json().wallet_address)
    }
    // In the order they ended, and last the address that just received a transfer (o1's place
    // depends on the block time of its payment, which the simulated chain may run ahead of the clock).
    expect(leased.filter((a) => a !== o1.address)).toEqual([o3.address, o4.address, o2.address])
    expect(leased.at(-1)).toBe(o2.address)
  })
})

describe('client networks', () => {
  it('are IPv4 /24 and IPv6 /48', () => {
    expect(clientNetworkKey('203.0.113.7')).toBe('203.0.113.0/24')
    expect(clientNetworkKey('::ffff:203.0.113.7')).toBe('203.0.113.0/24')
    expect(clientNetworkKey('2001:db8:1:2::5')).toBe('2001:db8:1::/48')
    expect(clientNetworkKey('2001:0db8:0001:ffff:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1::/48')
  })
})
