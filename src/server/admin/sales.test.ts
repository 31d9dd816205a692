import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testAddresses } from '../../../tests/support/test-addresses'
import { adminSession, createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { licenseKeys, mailOutbox, orders, payments, products, refunds, walletAddresses } from '../db/schema'
import { ensureFirstAdmin, SESSION_COOKIE } from './admin-auth'
import { salesFigures } from './sales.repo'

const NOW = new Date('2026-03-31T12:00:00Z')
const at = (iso: string) => new Date(iso)

describe.each(engines)('sales figures on %s', (engine) => {
  let t: TestApp
  let cookie: string
  const [a1, a2, a3] = testAddresses(3, 'dashboard') as [string, string, string]

  beforeAll(async () => {
    t = await createTestApp(engine, { ADMIN_PASSWORD: 'dashboard-password' })
    const { db } = t.database
    await ensureFirstAdmin(db, t.env)
    cookie = (await adminSession(t)).cookie as string
    expect(cookie.startsWith(SESSION_COOKIE)).toBe(true)

    const item = [{ product: { id: 1, name: 'Thing', price_cents: 1000 }, quantity: 1 }]
    const order = (o: {
      status: 'pending' | 'paid' | 'completed' | 'cancelled'
      created: string
      paid?: string
      cents: number
      usdt?: bigint
      trx?: bigint
      rate?: bigint
      address?: string
    }) => ({
      id: randomUUID(),
      email: 'b@example.com',
      items: item,
      totalCents: o.cents,
      walletAddress: o.address ?? a3,
      status: o.status,
      createdAt: at(o.created),
      paidAt: o.paid ? at(o.paid) : null,
      windowEndsAt: at(o.created),
      graceUntil: at(o.created),
      amountReceivedUnits: o.usdt ?? 0n,
      nativeReceivedUnits: o.trx ?? 0n,
      nativeRateE8: o.rate ?? null,
    })
    const pendingId = randomUUID()
    await db.insert(orders).values([
      order({
        status: 'paid',
        created: '2026-03-31T10:00:00Z',
        paid: '2026-03-31T10:05:00Z',
        cents: 1000,
        usdt: 10_000_000n,
      }),
      order({
        status: 'completed',
        created: '2026-03-30T09:00:00Z',
        paid: '2026-03-30T09:10:00Z',
        cents: 2500,
        trx: 100_000_000n,
        rate: 25_000_000n,
      }),
      order({
        status: 'paid',
        created: '2026-03-20T08:00:00Z',
        paid: '2026-03-20T08:30:00Z',
        cents: 500,
        usdt: 6_000_000n,
      }),
      order({
        status: 'paid',
        created: '2026-02-10T08:00:00Z',
        paid: '2026-02-10T08:30:00Z',
        cents: 999,
        usdt: 9_990_000n,
      }),
      {
        ...order({ status: 'pending', created: '2026-03-31T11:00:00Z', cents: 700, address: a1 }),
        id: pendingId,
      },
      order({ status: 'cancelled', created: '2026-03-25T08:00:00Z', cents: 800 }),
      order({ status: 'cancelled', created: '2026-01-01T08:00:00Z', cents: 900 }),
      // Paid in the future of NOW (the clock of the test): not counted.
      order({ status: 'paid', created: '2026-03-31T13:00:00Z', paid: '2026-03-31T13:05:00Z', cents: 4000 }),
    ])
    await db
      .insert(walletAddresses)
      .values([{ address: a1, leasedOrderId: pendingId }, { address: a2 }, { address: a3 }])
    await db.insert(payments).values({
      txId: 'aa'.repeat(32),
      token: 'USDT',
      amountUnits: 5_000_000n,
      fromAddress: a2,
      toAddress: a2,
      blockTimestamp: NOW.getTime(),
    })
    await db.insert(mailOutbox).values([
      {
        kind: 'a',
        toEmail: 'x@example.com',
        subject: 's',
        html: 'h',
        textBody: 't',
        status: 'failed',
        attempts: 8,
      },
      {
        kind: 'b',
        toEmail: 'x@example.com',
        subject: 's',
        html: 'h',
        textBody: 't',
        status: 'pending',
        attempts: 2,
      },
      {
        kind: 'c',
        toEmail: 'x@example.com',
        subject: 's',
        html: 'h',
        textBody: 't',
        status: 'sent',
        attempts: 1,
      },
      {
        kind: 'd',
        toEmail: 'x@example.com',
        subject: 's',
        html: 'h',
        textBody: 't',
        status: 'pending',
        attempts: 0,
      },
    ])
    await db.execute(sql`delete from products`)
    const [stockOnly, generated] = await db
      .insert(products)
      .values([
        {
          name: 'Stocked',
          description: 'd',
          priceCents: 1000,
          image: '/x.svg',
          features: ['f'],
          deliveryMode: 'stock_only',
          lowStockThreshold: 5,
        },
        { name: 'Generated', description: 'd', priceCents: 500, image: '/y.svg', features: ['f'] },
        {
          name: 'Free',
          description: 'd',
          priceCents: 0,
          isFree: true,
          image: '/z.svg',
          features: ['f'],
          downloadUrl: '/d',
        },
      ])
      .returning({ id: products.id })
    await db
      .insert(licenseKeys)
      .values([
        ...['K1', 'K2', 'K3'].map((key) => ({ productId: stockOnly!.id, key })),
        { productId: stockOnly!.id, key: 'K4', reservedOrderId: pendingId },
        { productId: stockOnly!.id, key: 'K5', orderId: randomUUID() },
        { productId: stockOnly!.id, key: 'K6', orderId: randomUUID() },
        { productId: generated!.id, key: 'G1', orderId: randomUUID(), generated: true },
      ])
    // Refunds sent: counted on their day; a return of a stray transfer is not revenue given back.
    const refund = (kind: 'refund' | 'return', sent: string, micros: bigint) => ({
      kind,
      orderId: kind === 'refund' ? randomUUID() : null,
      paymentId: kind === 'return' ? 1 : null,
      reason: 'test',
      token: 'USDT' as const,
      amountUnits: micros,
      usdMicros: micros,
      status: 'sent' as const,
      address: a1,
      requestKey: randomUUID(),
      sentAt: at(sent),
      txId: randomUUID().replace(/-/g, '').repeat(2),
      createdBy: 'owner',
    })
    await db
      .insert(refunds)
      .values([
        refund('refund', '2026-03-31T11:00:00Z', 4_000_000n),
        refund('refund', '2026-03-30T11:00:00Z', 2_500_001n),
        refund('return', '2026-03-31T11:30:00Z', 100_000_000n),
      ])
  })
  afterAll(() => t.close())

  it('answers every figure as computed by hand', async () => {
    const d = await salesFigures(t.database.db, { now: NOW, health: t.app.services.health })
    expect(d.days).toHaveLength(30)
    expect(d.days[0]!.day).toBe('2026-03-02')
    expect(d.days[29]).toEqual({
      day: '2026-03-31',
      paid_orders: 1,
      revenue_usdt: '10.00',
      revenue_trx: '0.00',
      revenue_trx_usd: '0.00',
      revenue_usd: '10.00',
      refunds_usd: '4.00',
      net_usd: '6.00',
    })
    expect(d.days.find((x) => x.day === '2026-03-30')).toMatchObject({
      paid_orders: 1,
      revenue_trx: '100.00',
      revenue_trx_usd: '25.00',
      revenue_usd: '25.00',
      // 2.500001 is rounded up: net revenue never shows more than was kept.
      refunds_usd: '2.51',
      net_usd: '22.49',
    })
    expect(d.days.filter((x) => x.paid_orders > 0).map((x) => x.day)).toEqual([
      '2026-03-20',
      '2026-03-30',
      '2026-03-31',
    ])
    expect(d.totals).toEqual({
      today: {
        paid_orders: 1,
        revenue_usdt: '10.00',
        revenue_trx: '0.00',
        revenue_trx_usd: '0.00',
        revenue_usd: '10.00',
        refunds_usd: '4.00',
        net_usd: '6.00',
      },
      last_7_days: {
        paid_orders: 2,
        revenue_usdt: '10.00',
        revenue_trx: '100.00',
        revenue_trx_usd: '25.00',
        revenue_usd: '35.00',
        refunds_usd: '6.51',
        net_usd: '28.49',
      },
      last_30_days: {
        paid_orders: 3,
        revenue_usdt: '16.00',
        revenue_trx: '100.00',
        revenue_trx_usd: '25.00',
        revenue_usd: '40.00',
        refunds_usd: '6.51',
        net_usd: '33.49',
      },
    })
    expect(d.orders_by_status).toEqual({
      refunded: 0,
      partially_refunded: 0,
      pending: 1,
      paid: 4,
      completed: 1,
      cancelled: 2,
    })
    expect(d.conversion).toEqual({ created: 5, paid: 3, rate: 0.6 })
    expect(d.health).toEqual({
      pools: [
        {
          family: 'tron',
          addresses: { total: 3, free: 2, leased: 1, cooling_down: 0 },
          // 4 orders in the last 7 days = 4/168 an hour; 2 free addresses last 84 hours at that rate.
          leases_per_hour: 0.02,
          pool_dry_in_hours: 84,
          pool_warning: false,
        },
      ],
      unmatched_transfers: 1,
      // The failed one; the pending one refused twice is a hiccup the retries take care of.
      mails_failing: 1,
      follower_lag_seconds: null,
    })
    expect(d.stock.map(({ product_id: _, ...s }) => s)).toEqual([
      {
        name: 'Stocked',
        delivery_mode: 'stock_only',
        keys_left: 3,
        keys_reserved: 1,
        keys_sold: 2,
        low_stock_threshold: 5,
        low_below: 5,
        low: true,
        licence_activation_limit: null,
        licence_validity_days: null,
      },
      {
        name: 'Generated',
        delivery_mode: 'stock_then_generated',
        keys_left: 0,
        keys_reserved: 0,
        keys_sold: 1,
        // Keys are generated once the stock is gone: without a threshold of its own it is never low.
        low_stock_threshold: null,
        low_below: null,
        low: false,
        licence_activation_limit: null,
        licence_validity_days: null,
      },
    ])
  })

  it('warns when the pool runs dry within a day, and takes the follower lag from the payments module', async () => {
    const d = await salesFigures(t.database.db, {
      now: NOW,
      health: {
        ...t.app.services.health,
        addressPools: async () => [
          {
            family: 'tron',
            total: 10,
            free: 0,
            leased: 7,
            cooling: 3,
            ordersPerHour: 2,
            hoursToDry: 0,
          },
        ],
        unmatchedTransfers: async () => 4,
        blocksBehindSeconds: async () => 12,
      },
    })
    expect(d.health).toMatchObject({
      pools: [
        {
          family: 'tron',
          addresses: { total: 10, free: 0, leased: 7, cooling_down: 3 },
          pool_dry_in_hours: 0,
          pool_warning: true,
        },
      ],
      unmatched_transfers: 4,
      follower_lag_seconds: 12,
    })
  })

  it('is an admin call', async () => {
    expect((await rpc(t.app, 'secure_fetch_sales')).status).toBe(401)
    const res = await rpc(t.app, 'secure_fetch_sales', {}, { cookie })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ success: true, orders_by_status: { pending: 1, paid: 4 } })
    expect((await rpc(t.app, 'secure_fetch_sales', { p_days: 3 }, { cookie })).status).toBe(400)
  })
})

// The counters the sales view reads (migration 0026) must equal what aggregating the rows gives,
// whatever statements change them: inserts, status and payment updates, key reservations and
// sales, deletes.
const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows

describe.each(engines)('sales counters on %s', (engine) => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(engine)
  })
  afterAll(() => t.close())

  const fromCounters = async () => ({
    days: rowsOf(
      await t.database.db.execute(sql`
        select day::text, sum(created)::int as created, sum(created_paid)::int as created_paid,
               sum(paid)::int as paid, sum(cents)::text as cents, sum(usdt)::text as usdt,
               sum(native_units)::text as trx, sum(native_micros)::text as trx_micros
        from order_day_counts group by day
        having sum(created) <> 0 or sum(paid) <> 0 or sum(cents) <> 0 order by day`),
    ),
    keys: rowsOf(
      await t.database.db.execute(sql`
        select product_id, sum(keys_left)::int as keys_left, sum(keys_reserved)::int as keys_reserved,
               sum(keys_sold)::int as keys_sold
        from product_key_counts group by product_id
        having sum(keys_left) <> 0 or sum(keys_reserved) <> 0 or sum(keys_sold) <> 0 order by product_id`),
    ),
  })
  const fromRows = async () => ({
    days: rowsOf(
      await t.database.db.execute(sql`
        select day::text, sum(created)::int as created, sum(created_paid)::int as created_paid,
               sum(paid)::int as paid, sum(cents)::text as cents, sum(usdt)::text as usdt,
               sum(trx)::text as trx, sum(trx_micros)::text as trx_micros
        from (
          select (created_at at time zone 'UTC')::date as day, 1 as created,
                 (status in ('paid', 'completed'))::int as created_paid, 0 as paid, 0::numeric as cents,
                 0::numeric as usdt, 0::numeric as trx, 0::numeric as trx_micros
          from orders
          union all
          select (paid_at at time zone 'UTC')::date, 0, 0, 1, total_cents, amount_received_units,
                 native_received_units, div(native_received_units::numeric * coalesce(native_rate_e8, 0), 100000000)
          from orders where paid_at is not null and status in ('paid', 'completed')
        ) as r group by day order by day`),
    ),
    keys: rowsOf(
      await t.database.db.execute(sql`
        select product_id,
               count(*) filter (where order_id is null and reserved_order_id is null)::int as keys_left,
               count(*) filter (where order_id is null and reserved_order_id is not null)::int as keys_reserved,
               count(*) filter (where order_id is not null)::int as keys_sold
        from license_keys group by product_id order by product_id`),
    ),
  })

  it('stay equal to the rows through inserts, updates and deletes', async () => {
    const { db } = t.database
    const [address] = testAddresses(1, 'dashboard counters') as [string]
    const ids = Array.from({ length: 6 }, () => randomUUID())
    const base = (id: string, created: string) => ({
      id,
      email: 'c@example.com',
      items: [],
      totalCents: 1234,
      walletAddress: address,
      createdAt: at(created),
      windowEndsAt: at(created),
      graceUntil: at(created),
    })
    await db
      .insert(orders)
      .values([
        base(ids[0]!, '2026-03-01T23:59:59Z'),
        base(ids[1]!, '2026-03-02T00:00:00Z'),
        { ...base(ids[2]!, '2026-03-02T10:00:00Z'), status: 'cancelled' as const },
        base(ids[3]!, '2026-03-03T10:00:00Z'),
      ])
    // Paid a day later, in TRX at a locked rate; then completed (no change to the figures).
    await db.execute(sql`
      update orders set status = 'paid', paid_at = '2026-03-03T01:00:00Z', native_received_units = 123456789,
             native_rate_e8 = 25000000
      where id = ${ids[0]!}`)
    await db.execute(sql`update orders set status = 'completed' where id = ${ids[0]!}`)
    await db.execute(sql`
      update orders set status = 'paid', paid_at = '2026-03-03T12:00:00Z', amount_received_units = 12340000
      where id in (${ids[1]!}, ${ids[3]!})`)
    // A paid order cancelled by the admin leaves the revenue; an unrelated update changes nothing.
    await db.execute(sql`update orders set status = 'cancelled' where id = ${ids[3]!}`)
    await db.execute(sql`update orders set email = 'd@example.com'`)
    await db
      .insert(orders)
      .values([base(ids[4]!, '2026-03-04T10:00:00Z'), base(ids[5]!, '2026-03-04T11:00:00Z')])
    await db.execute(sql`delete from orders where id = ${ids[4]!}`)

    await db
      .insert(licenseKeys)
      .values([
        ...['A1', 'A2', 'A3', 'A4'].map((key) => ({ productId: 9001, key })),
        { productId: 9002, key: 'B1' },
      ])
    await db.execute(sql`update license_keys set reserved_order_id = ${ids[5]!} where key in ('A1', 'A2')`)
    await db.execute(sql`
      update license_keys set order_id = reserved_order_id, reserved_order_id = null where key = 'A1'`)
    await db.execute(sql`update license_keys set reserved_order_id = null where key = 'A2'`)
    await db.execute(sql`update license_keys set order_id = ${ids[1]!} where key = 'B1'`)
    await db.execute(sql`delete from license_keys where key = 'A4'`)

    const counted = await fromCounters()
    expect(counted).toEqual(await fromRows())
    expect(counted.keys).toEqual([
      { product_id: 9001, keys_left: 2, keys_reserved: 0, keys_sold: 1 },
      { product_id: 9002, keys_left: 0, keys_reserved: 0, keys_sold: 1 },
    ])
    expect(counted.days.find((d) => d.day === '2026-03-03')).toMatchObject({
      created: 1,
      created_paid: 0,
      paid: 2,
      cents: '2468',
    })
  })
})
