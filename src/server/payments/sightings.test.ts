import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPaymentFixture, type PaymentFixture } from '../../../tests/support/payment-fixture'
import { adminSession, rpc } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { waitFor } from '../../../tests/support/wait'
import { createSightingWatcher, type SightingWatcher, sightingPace } from '../chains/sighting-watcher'
import { createTronChain, tronPoolOf } from '../chains/tron/tron-chain'
import { createProviderPool } from '../chains/tron/tron-pool'

const PAYOUT = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL'

// Sightings (decision 024) against the devchain over real HTTP: a transfer to an open order's
// address is seen in the head before it is solidified, and only the follower's solidified read pays.

describe.each(engines)('sightings on %s', (engine) => {
  let f: PaymentFixture
  let watcher: SightingWatcher

  let session: Record<string, string> = {}

  beforeAll(async () => {
    f = await createPaymentFixture(engine, {
      env: {
        ADMIN_USERNAME: 'admin',
        ADMIN_PASSWORD: 'sightings-admin-password',
        PUBLIC_URL: 'http://shop.test',
      },
    })
    session = await adminSession(f.t)
    watcher = createSightingWatcher({
      db: f.t.database.db,
      chain: createTronChain({
        pool: tronPoolOf(f.t.app.services.chains.require('tron')),
        blockIntervalMs: 100,
      }),
      blockIntervalMs: 100,
    })
  })
  afterAll(() => f.close())

  type Sightings = {
    confirming: Record<string, number | null> | null
    dropped: boolean
    failed: { tx_id: string; token: string; amount: number; reason: string }[]
  }
  const sightingsOf = async (id: string) => (await f.status(id)).sightings as Sightings
  /** Runs the watcher until the order's sightings satisfy `done` (each pass looks when it is due). */
  const watchUntil = async (id: string, what: string, done: (s: Sightings) => boolean) => {
    await waitFor(what, async () => {
      await watcher.runOnce()
      return done(await sightingsOf(id))
    })
    return sightingsOf(id)
  }
  const ledgerOf = (txId: string) => f.rows(sql`select * from payments where tx_id = ${txId}`)
  const deliveredTo = async (id: string) => ({
    mails: (await f.rows(sql`select id from mail_outbox where order_id = ${id}`)).length,
    keys: (await f.rows(sql`select id from license_keys where order_id = ${id}`)).length,
    token: (await f.order(id)).access_token,
  })

  it('sees a transfer in the head as confirming, pays only once its block is solidified', async () => {
    // An endpoint listening for order.confirming (the webhook worker is not running here).
    await f.rows(
      sql`insert into webhook_endpoints (url, events, secret) values ('https://hooks.test/x', '["order.confirming"]'::jsonb, 'whsec_test')`,
    )
    const o = await f.placeOrder()
    const sent = await f.send({ to: o.address, amount: o.total.toFixed(2) })
    f.chain.mine(1)
    const seen = await watchUntil(o.id, 'the sighting', (s) => s.confirming !== null)
    expect(seen.confirming).toMatchObject({ amount_seen: o.total, missing: 0, block: sent.block })
    expect(seen.confirming?.blocks_left).toBeGreaterThan(0)
    // A sighting never pays: pending, nothing credited, nothing delivered.
    expect(await f.status(o.id)).toMatchObject({ status: 'pending', amount_received: 0, access_token: null })
    expect(await ledgerOf(sent.txId)).toEqual([])
    expect(await deliveredTo(o.id)).toEqual({ mails: 0, keys: 0, token: null })

    // order.confirming once, with the sighting; a sighting seen again adds no second event.
    await watcher.runOnce()
    const events = await f.rows(
      sql`select body from webhook_deliveries where event_type = 'order.confirming' and body like ${`%${o.id}%`}`,
    )
    expect(events).toHaveLength(1)
    expect(JSON.parse(String(events[0]?.body)).data).toMatchObject({
      sighting: { tx_id: sent.txId, token: 'USDT', block_number: sent.block },
    })
    await f.settle(sent.block)
    expect(await f.status(o.id)).toMatchObject({ status: 'paid', tx_hash: sent.txId })
    await watcher.runOnce()
    const [row] = await f.rows(sql`select status from payment_sightings where tx_id = ${sent.txId}`)
    expect(row?.status).toBe('confirmed')
    expect((await sightingsOf(o.id)).confirming).toBeNull()
  })

  it('a dropped head transaction: back to waiting, and no ledger row, key, token or e-mail', async () => {
    const o = await f.placeOrder()
    const sent = await f.send({ to: o.address, amount: o.total.toFixed(2) })
    f.chain.mine(1)
    await watchUntil(o.id, 'the sighting', (s) => s.confirming !== null)
    f.chain.drop(sent.txId)
    await f.settle(sent.block)
    const after = await watchUntil(o.id, 'the drop', (s) => s.dropped)
    expect(after.confirming).toBeNull()
    expect(await f.status(o.id)).toMatchObject({ status: 'pending', amount_received: 0 })
    expect(await ledgerOf(sent.txId)).toEqual([])
    expect(await deliveredTo(o.id)).toEqual({ mails: 0, keys: 0, token: null })
  })

  it('a transfer that ran out of energy is a failed sighting with its reason, never a payment', async () => {
    const o = await f.placeOrder()
    const sent = await f.send({ to: o.address, amount: o.total.toFixed(2), failed: 'OUT_OF_ENERGY' })
    f.chain.mine(1)
    const seen = await watchUntil(o.id, 'the failed transfer', (s) => s.failed.length > 0)
    expect(seen.failed).toEqual([
      { tx_id: sent.txId, token: 'USDT', amount: o.total, reason: 'OUT_OF_ENERGY' },
    ])
    expect(seen.confirming).toBeNull()
    await f.settle(sent.block)
    expect(await ledgerOf(sent.txId)).toEqual([])
    expect(await f.status(o.id)).toMatchObject({ status: 'pending', amount_received: 0 })
    // A reverted transferFrom is named too.
    const reverted = await f.send({ to: o.address, amount: '1', method: 'transferFrom', failed: 'REVERT' })
    f.chain.mine(1)
    const both = await watchUntil(o.id, 'the reverted transfer', (s) => s.failed.length === 2)
    expect(both.failed.map((x) => [x.tx_id, x.reason])).toContainEqual([reverted.txId, 'REVERT'])
  })

  it('an underpaid sighting says what is still missing; TRX counts at the locked rate', async () => {
    const o = await f.placeOrder({ quantity: 2 })
    f.send({ to: o.address, amount: (o.total / 2).toFixed(2) })
    f.chain.mine(1)
    const seen = await watchUntil(o.id, 'the sighting', (s) => s.confirming !== null)
    expect(seen.confirming?.amount_seen).toBeCloseTo(o.total / 2, 2)
    expect(seen.confirming?.missing).toBeCloseTo(o.total - Number((o.total / 2).toFixed(2)), 2)
    // The rest in TRX, paid out by a contract (an internal transfer): its receipt is read for it.
    await f.send({ to: o.address, amount: String(o.trxAmount), token: 'TRX', via_contract: PAYOUT })
    f.chain.mine(1)
    const more = await watchUntil(o.id, 'the TRX sighting', (s) => (s.confirming?.missing ?? 1) === 0)
    expect(more.confirming?.amount_seen).toBeGreaterThan(o.total)
  })

  it('the operator sees the order confirming with the amount seen, and the failed transfer on it', async () => {
    const o = await f.placeOrder()
    const failed = await f.send({ to: o.address, amount: '1', failed: 'REVERT' })
    const sent = await f.send({ to: o.address, amount: o.total.toFixed(2) })
    f.chain.mine(1)
    await watchUntil(o.id, 'the sightings', (s) => s.confirming !== null && s.failed.length === 1)
    const list = await rpc(f.t.app, 'secure_fetch_orders', { p_search: o.id }, session)
    expect(list.body.orders).toMatchObject([{ id: o.id, status: 'pending', confirming: o.total }])
    const detail = await rpc(f.t.app, 'secure_fetch_order', { p_order_id: o.id }, session)
    expect(detail.body).toMatchObject({ order: { confirming: o.total }, payments: [] })
    const seen = await rpc(f.t.app, 'secure_fetch_order_sightings', { p_order_id: o.id }, session)
    expect(seen.body.sightings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tx_id: sent.txId, status: 'seen', failure: null, amount: o.total }),
        expect.objectContaining({ tx_id: failed.txId, status: 'failed', failure: 'REVERT', amount: 1 }),
      ]),
    )
    // Not for strangers.
    expect((await rpc(f.t.app, 'secure_fetch_order_sightings', { p_order_id: o.id })).status).toBe(401)
    const chain = await rpc(f.t.app, 'secure_fetch_providers', {}, session)
    expect(chain.body.sightings).toMatchObject({
      mode: expect.any(String),
      requests_today: expect.any(Number),
    })
    await f.settle(sent.block)
    const after = await rpc(f.t.app, 'secure_fetch_orders', { p_search: o.id }, session)
    expect(after.body.orders).toMatchObject([{ status: 'paid', confirming: null }])
  })

  it('sightings never pay: an order whose transfer never solidifies expires by chain time', async () => {
    const o = await f.placeOrder()
    const sent = await f.send({ to: o.address, amount: o.total.toFixed(2) })
    f.chain.mine(1)
    await watchUntil(o.id, 'the sighting', (s) => s.confirming !== null)
    await f.rows(
      sql`update orders set window_ends_at = now() - interval '2 s', grace_until = now() - interval '1 s' where id = ${o.id}`,
    )
    f.chain.drop(sent.txId)
    await f.settle(f.chain.heights().head)
    expect(await f.status(o.id)).toMatchObject({ status: 'cancelled', amount_received: 0 })
    expect((await f.order(o.id)).cancel_reason).toBe('expired')
    expect(await ledgerOf(sent.txId)).toEqual([])
    expect(await deliveredTo(o.id)).toEqual({ mails: 0, keys: 0, token: null })
  })

  it('the status call waits for news when it already has the answer (the long poll)', async () => {
    const o = await f.placeOrder()
    const first = await f.status(o.id)
    const started = Date.now()
    const waiting = rpc(f.t.app, 'secure_get_order_status', {
      p_order_id: o.id,
      p_order_secret: f.secretOf(o.id),
      p_known_version: first.version,
    })
    await f.send({ to: o.address, amount: o.total.toFixed(2) })
    f.chain.mine(1)
    // The watcher's news wakes the waiting call; nothing else here changes the answer.
    const watching = (async () => {
      for (let i = 0; i < 100 && Date.now() - started < 9000; i++) {
        const pass = await watcher.runOnce()
        if (pass.orders.includes(o.id)) {
          f.t.app.services.orderWatch.notify(pass.orders)
          return
        }
        await new Promise((r) => setTimeout(r, 50))
      }
    })()
    const { body } = await waiting
    await watching
    expect(body.version).not.toBe(first.version)
    expect((body.sightings as Sightings).confirming).not.toBeNull()
    expect(Date.now() - started).toBeLessThan(9000)
    const bad = await rpc(f.t.app, 'secure_get_order_status', { p_order_id: o.id, p_known_version: 'x' })
    expect(bad.status).toBe(400)
  })
})

describe('the one request budget', () => {
  const day = Date.UTC(2026, 10, 25)
  const pace = (perDay: number | null, usedToday: number, sightingsToday: number, at: number) =>
    sightingPace(
      { perDay, usedToday, sightingsToday, countingSince: day },
      { now: day + at, blockIntervalMs: 3000, followerPerSecond: 2.2 / 3, reserveShare: 0.05 },
    )

  it('sightings look every block when the budget has room, slower when tight, not at all when spent', () => {
    expect(pace(null, 0, 0, 3600_000)).toEqual({ mode: 'full', lookEveryMs: 3000 })
    // 100,000 a day and a follower at ~63,000: room for a look every block.
    expect(pace(100_000, 2_640, 0, 3600_000).mode).toBe('full')
    // 70,000 a day: what the follower leaves is spread over the day.
    const tight = pace(70_000, 2_640, 0, 3600_000)
    expect(tight.mode).toBe('slowed')
    expect(tight.lookEveryMs).toBeGreaterThan(3000)
    expect(tight.lookEveryMs).toBeLessThan(60_000)
    // The follower's need for the rest of the day comes first.
    expect(pace(70_000, 60_000, 5_000, 12 * 3600_000).mode).toBe('paused')
  })

  it('a paused watcher sends nothing while the follower keeps reading through the same pool', async () => {
    const f = await createPaymentFixture('pglite')
    try {
      const pool = createProviderPool({
        providers: [{ name: 'one', url: f.chain.url, keys: [], rps: 100, perDay: 60 }],
        usdtContract: f.t.env.USDT_CONTRACT,
      })
      // The follower's share of a 60-request day is gone at once: sightings pause.
      for (let i = 0; i < 40; i++) await pool.getSolidHead()
      const watcher = createSightingWatcher({
        db: f.t.database.db,
        chain: createTronChain({ pool, blockIntervalMs: 100 }),
        blockIntervalMs: 100,
      })
      const o = await f.placeOrder()
      await f.send({ to: o.address, amount: o.total.toFixed(2) })
      f.chain.mine(1)
      f.chain.resetStats()
      const pass = await watcher.runOnce()
      expect(pass).toMatchObject({ mode: 'paused', requests: 0 })
      expect(watcher.status().mode).toBe('paused')
      expect(f.chain.stats().requests).toBe(0)
      expect(pool.requestBudget().sightingsToday).toBe(0)
      // The follower is not held back: it reads the solidified blocks through the same pool.
      const blocks = await pool.getSolidBlocks(f.chain.heights().solid, f.chain.heights().solid + 1)
      expect(blocks.status).toBe('success')
    } finally {
      await f.close()
    }
  })
})
