import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { testAddresses } from '../../../tests/support/payment-fixture'
import { createTestApp, type TestApp } from '../../../tests/support/test-app'
import { createTestDatabase, engines } from '../../../tests/support/test-db'
import { seedOnce } from '../db/seed'
import { clientAddressKey } from '../lib/client-address'
import { addWalletAddresses } from '../wallets/wallets.repo'
import { checkoutMessages } from './checkout-limits'

type Answer = { status: number; body: Record<string, unknown>; headers: Record<string, unknown> }

describe.each(engines)('checkout limits on %s', (engine) => {
  let t: TestApp
  let product: { id: number; price: number }

  beforeAll(async () => {
    const database = await createTestDatabase(engine, { poolSize: 20 })
    await seedOnce(database.db)
    t = await createTestApp(
      engine,
      {
        CHECKOUT_PENDING_PER_CLIENT: '5',
        CHECKOUT_PENDING_PER_EMAIL: '3',
        CHECKOUT_CREATIONS_PER_MINUTE: '1000',
      },
      { database },
    )
    const rows = (await t.database.db.execute(
      sql`select id, price_cents from products where not is_free and price_cents > 0 order by id limit 1`,
    )) as unknown as { rows: { id: number; price_cents: number }[] }
    const row = rows.rows[0] as { id: number; price_cents: number }
    product = { id: row.id, price: row.price_cents / 100 }
  })
  afterAll(() => t.close())

  beforeEach(async () => {
    await t.database.db.execute(sql`delete from orders`)
    await t.database.db.execute(sql`delete from wallet_addresses`)
  })

  const create = async (
    opts: { email?: string; ip?: string; cookie?: string; app?: TestApp } = {},
  ): Promise<Answer> => {
    const res = await (opts.app ?? t).app.inject({
      method: 'POST',
      url: '/rpc/secure_create_order',
      remoteAddress: opts.ip ?? '203.0.113.7',
      headers: opts.cookie ? { cookie: opts.cookie } : {},
      payload: {
        p_email: opts.email ?? 'buyer@example.com',
        p_items: [{ product: { id: product.id }, quantity: 1 }],
        p_total: product.price,
      },
    })
    return { status: res.statusCode, body: res.json(), headers: res.headers }
  }
  const leases = async () => {
    const r = (await t.database.db.execute(
      sql`select count(*)::int as n from wallet_addresses where leased_order_id is not null`,
    )) as unknown as { rows: { n: number }[] }
    return r.rows[0]?.n ?? 0
  }

  it('one client cannot lease the pool: 100 parallel orders from one address get 5', async () => {
    await addWalletAddresses(t.database.db, testAddresses(50, 'limits'))
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => create({ email: `buyer${i}@example.com` })),
    )
    expect(answers.filter((a) => a.status !== 200)).toEqual([])
    expect(answers.filter((a) => a.body.success === true)).toHaveLength(5)
    const refused = answers.filter((a) => a.body.success === false)
    expect(new Set(refused.map((a) => a.body.error))).toEqual(new Set([checkoutMessages.tooManyPending]))
    expect(await leases()).toBe(5)
    // Another buyer still gets an address.
    expect((await create({ ip: '198.51.100.1', email: 'other@example.com' })).body.success).toBe(true)
    // An IPv6 client is one client across its /64.
    const v6 = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        create({ ip: `2001:db8:1:2::${i + 1}`, email: `v6-${i}@example.com` }),
      ),
    )
    expect(v6.filter((a) => a.body.success === true)).toHaveLength(5)
  })

  it('one e-mail holds at most 3 orders awaiting payment, from any client', async () => {
    await addWalletAddresses(t.database.db, testAddresses(10, 'limits'))
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => create({ ip: `198.51.100.${i + 10}`, email: 'Same@Example.com' })),
    )
    expect(answers.filter((a) => a.body.success === true)).toHaveLength(3)
    expect(answers.filter((a) => a.body.error === checkoutMessages.tooManyPending)).toHaveLength(3)
    // An order whose window is over no longer counts.
    await t.database.db.execute(sql`update orders set window_ends_at = now() - interval '1 second'`)
    expect((await create({ email: 'same@example.com' })).body.success).toBe(true)
  })

  it('a new checkout from the same browser cancels its earlier order and keeps its address', async () => {
    const [address] = testAddresses(1, 'browser')
    await addWalletAddresses(t.database.db, [address as string])
    const first = await create()
    expect(first.body.success).toBe(true)
    const raw = first.headers['set-cookie']
    const cookie = String(Array.isArray(raw) ? raw[0] : raw)
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)
    const jar = cookie.split(';')[0] as string
    // Another browser finds no free address…
    expect((await create({ ip: '198.51.100.99', email: 'x@example.com' })).body.success).toBe(false)
    // …the same browser starting again cancels its first order and keeps the address: a late
    // transfer for the first order can only reach the same buyer's new one, never a stranger's.
    const second = await create({ cookie: jar })
    expect(second.body).toMatchObject({ success: true, wallet_address: address })
    const r = (await t.database.db.execute(
      sql`select status from orders where id = ${first.body.order_id as string}`,
    )) as unknown as { rows: { status: string }[] }
    expect(r.rows[0]?.status).toBe('cancelled')
    // The first order's span ends where the second's starts: one history, no overlap.
    const spans = (await t.database.db.execute(
      sql`select order_id, started_at, ended_at, cooldown_until from address_leases
          where address = ${address as string} order by id`,
    )) as unknown as {
      rows: { order_id: string; started_at: string; ended_at: string | null; cooldown_until: string | null }[]
    }
    expect(spans.rows.map((s) => s.order_id)).toEqual([first.body.order_id, second.body.order_id])
    const [old, fresh] = spans.rows
    expect(new Date(old?.cooldown_until as string).getTime()).toBe(
      new Date(fresh?.started_at as string).getTime(),
    )
    expect(new Date(old?.ended_at as string).getTime()).toBe(new Date(fresh?.started_at as string).getTime())
  })

  it('a browser starting three checkouts at once keeps only its last; other buyers are untouched', async () => {
    await addWalletAddresses(t.database.db, testAddresses(20, 'browser at once'))
    const first = await create()
    const jar = String([first.headers['set-cookie']].flat()[0]).split(';')[0] as string
    // Three more from that browser and eight from other buyers, all at the same moment.
    const answers = await Promise.all([
      ...Array.from({ length: 3 }, () => create({ cookie: jar, email: 'again@example.com' })),
      ...Array.from({ length: 8 }, (_, i) =>
        create({ ip: `198.51.100.${i + 1}`, email: `other${i}@example.com` }),
      ),
    ])
    expect(answers.every((a) => a.status === 200 && a.body.success === true)).toBe(true)
    const r = (await t.database.db.execute(
      sql`select status, count(*)::int as n from orders group by status order by status`,
    )) as unknown as { rows: { status: string; n: number }[] }
    // The browser's first order and two of its three new ones were given back, one after the other.
    expect(r.rows).toEqual([
      { status: 'cancelled', n: 3 },
      { status: 'pending', n: 9 },
    ])
    expect(await leases()).toBe(9)
  })

  it('an earlier order that has received money is not given back', async () => {
    await addWalletAddresses(t.database.db, testAddresses(2, 'partial'))
    const first = await create()
    const jar = String([first.headers['set-cookie']].flat()[0]).split(';')[0] as string
    await t.database.db.execute(sql`update orders set amount_received_units = 5000000`)
    expect((await create({ cookie: jar })).body.success).toBe(true)
    const r = (await t.database.db.execute(
      sql`select status from orders where id = ${first.body.order_id as string}`,
    )) as unknown as { rows: { status: string }[] }
    expect(r.rows[0]?.status).toBe('pending')
  })

  it('creations per client per minute are limited with 429 and Retry-After', async () => {
    const limited = await createTestApp(
      engine,
      {
        CHECKOUT_PENDING_PER_CLIENT: '5',
        CHECKOUT_PENDING_PER_EMAIL: '3',
        CHECKOUT_CREATIONS_PER_MINUTE: '10',
      },
      { database: t.database },
    )
    try {
      await addWalletAddresses(t.database.db, testAddresses(20, 'minute'))
      const answers: Answer[] = []
      for (let i = 0; i < 12; i++) {
        answers.push(await create({ app: limited, email: `m${i}@example.com`, cookie: undefined }))
      }
      expect(answers.slice(0, 10).every((a) => a.status === 200)).toBe(true)
      expect(answers[10]?.status).toBe(429)
      expect(answers[10]?.body.error).toBe(checkoutMessages.tooManyAttempts)
      expect(Number(answers[10]?.headers['retry-after'])).toBeGreaterThan(0)
    } finally {
      await limited.app.close()
    }
  })

  it('the order id alone says paid or not; the secret unlocks the token', async () => {
    await addWalletAddresses(t.database.db, testAddresses(1, 'secret'))
    const order = await create()
    const id = order.body.order_id as string
    const secret = order.body.order_secret as string
    expect(secret).toMatch(/^[\w-]{43}$/)
    await t.database.db.execute(
      sql`update orders set status = 'paid', access_token = ${'t'.repeat(48)}, tx_hash = ${'a'.repeat(64)} where id = ${id}`,
    )
    const status = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/rpc/secure_get_order_status', payload }).then((r) => r.json())
    for (const guess of [undefined, 'x', `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`, '']) {
      expect(await status({ p_order_id: id, p_order_secret: guess })).toEqual({
        success: true,
        order_id: id,
        paid: true,
      })
    }
    expect(await status({ p_order_id: id, p_order_secret: secret })).toMatchObject({
      success: true,
      status: 'paid',
      access_token: 't'.repeat(48),
      tx_hash: 'a'.repeat(64),
    })
  })
})

describe('client address keys', () => {
  it('counts an IPv6 client by its /64 and an IPv4 client by its address', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7')
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(clientAddressKey('2001:db8:1:2::5')).toBe('2001:db8:1:2::/64')
    expect(clientAddressKey('2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64')
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64')
  })
})
