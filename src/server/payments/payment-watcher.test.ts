import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createPaymentFixture,
  type PaymentFixture,
  testAddresses,
} from '../../../tests/support/payment-fixture'
import { rpc } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { waitFor } from '../../../tests/support/wait'
import type { FaultMode } from '../../../tools/devchain/devchain'
import { confirmMessages } from '../../shared/order-status'
import { createPaymentWatcher } from './payment-watcher'
import { createTronClient } from './tron-client'

const COUNTERFEIT = testAddresses(1, 'counterfeit usdt')[0] as string

describe.each(engines)('payment watcher on %s (devchain over HTTP)', (engine) => {
  let f: PaymentFixture

  beforeAll(async () => {
    f = await createPaymentFixture(engine)
  })
  afterAll(() => f.close())

  const status = async (id: string) =>
    (await rpc(f.t.app, 'secure_get_order_status', { p_order_id: id, p_order_secret: f.secretOf(id) })).body

  it('confirms an exact payment once: paid, amount, hash, token, lease released', async () => {
    const o = await f.placeOrder()
    const before = await status(o.id)
    expect(before).toMatchObject({ success: true, status: 'pending', total: o.total, access_token: null })
    const sent = f.chain.transfer({ to: o.address, amount: o.total.toFixed(2) })
    await f.watcher.drain()

    const after = await status(o.id)
    expect(after).toMatchObject({
      success: true,
      status: 'paid',
      amount_received: o.total,
      tx_hash: sent.transaction_id,
      late: false,
    })
    expect(after.access_token).toMatch(/^[A-Za-z0-9_-]{32}$/)
    const row = await f.order(o.id)
    expect(row.paid_at).not.toBeNull()
    // The address is free again, and remembers the payment's block time.
    const leases = (await f.t.database.db.execute(
      sql`select leased_order_id, last_payment_ts from wallet_addresses where address = ${o.address}`,
    )) as unknown as { rows: { leased_order_id: string | null; last_payment_ts: string }[] }
    expect(leases.rows[0]?.leased_order_id).toBeNull()
    expect(Number(leases.rows[0]?.last_payment_ts)).toBe(sent.block_timestamp)

    // Polling again changes nothing: one payment row, the same token.
    await f.watcher.drain()
    const rows = (await f.payments()).filter((p) => p.order_id === o.id)
    expect(rows).toHaveLength(1)
    expect((await status(o.id)).access_token).toBe(after.access_token)
  })

  it('accepts a payment within the tolerance (2 units short) and records an overpayment', async () => {
    const short = await f.placeOrder(3)
    f.chain.transfer({ to: short.address, amount: (short.total - 1.99).toFixed(2) })
    const over = await f.placeOrder()
    f.chain.transfer({ to: over.address, amount: (over.total + 5).toFixed(2) })
    await f.watcher.drain()
    expect(await status(short.id)).toMatchObject({ status: 'paid' })
    expect(await status(over.id)).toMatchObject({ status: 'paid', amount_received: over.total + 5 })
  })

  it('keeps an underpaid order pending with what arrived, and pays it when topped up', async () => {
    const o = await f.placeOrder(2)
    f.chain.transfer({ to: o.address, amount: '10' })
    await f.watcher.drain()
    expect(await status(o.id)).toMatchObject({ status: 'pending', amount_received: 10, access_token: null })
    const top = f.chain.transfer({ to: o.address, amount: (o.total - 10).toFixed(2) })
    await f.watcher.drain()
    expect(await status(o.id)).toMatchObject({
      status: 'paid',
      amount_received: o.total,
      tx_hash: top.transaction_id,
    })
    expect((await f.payments()).filter((p) => p.order_id === o.id)).toHaveLength(2)
  })

  it('ignores a counterfeit USDT contract, Approval rows, unconfirmed and older transfers', async () => {
    const o = await f.placeOrder()
    const created = Date.parse(String((await f.order(o.id)).created_at))
    const amount = o.total.toFixed(2)
    f.chain.transfer({ to: o.address, amount, contract: COUNTERFEIT })
    f.chain.transfer({ to: o.address, amount, type: 'Approval' })
    f.chain.transfer({ to: o.address, amount, block_timestamp: created - 60_000 })
    const unconfirmed = f.chain.transfer({ to: o.address, amount, confirmed: false })
    await f.watcher.drain()
    expect(await status(o.id)).toMatchObject({ status: 'pending', amount_received: 0 })
    expect((await f.payments()).filter((p) => p.to_address === o.address)).toHaveLength(0)

    // Once the chain confirms it, the real one pays.
    f.chain.confirm(unconfirmed.transaction_id)
    await f.watcher.drain()
    expect(await status(o.id)).toMatchObject({ status: 'paid', tx_hash: unconfirmed.transaction_id })
  })

  it('credits one transaction to one order only; its transfer to another order is kept unmatched', async () => {
    const a = await f.placeOrder()
    const b = await f.placeOrder()
    const txid = randomBytes(32).toString('hex')
    f.chain.transfer({ to: a.address, amount: a.total.toFixed(2), txid })
    f.chain.transfer({ to: b.address, amount: b.total.toFixed(2), txid })
    await f.watcher.drain()
    const states = [(await status(a.id)).status, (await status(b.id)).status].sort()
    expect(states).toEqual(['paid', 'pending'])
    const rows = (await f.payments()).filter((p) => p.tx_id === txid)
    expect(rows).toHaveLength(2)
    expect(rows.filter((p) => p.order_id === null)).toHaveLength(1)

    // Offering the same hash for the unpaid order by hand is refused too.
    const unpaid = (await status(a.id)).status === 'pending' ? a : b
    const offered = await rpc(f.t.app, 'secure_confirm_transaction', {
      p_order_id: unpaid.id,
      p_transaction_hash: txid,
    })
    expect(offered.body).toEqual({ success: false, error: confirmMessages.alreadyUsed })
  })

  it('pays a late transfer within the grace period and marks it late', async () => {
    const o = await f.placeOrder()
    await f.age(o.id, 40) // window over 10 minutes ago, grace still running
    f.chain.transfer({ to: o.address, amount: o.total.toFixed(2) })
    await f.watcher.drain()
    expect(await status(o.id)).toMatchObject({ status: 'paid', late: true })
  })

  it('after the grace period: a transfer made during grace still pays; without one the order is cancelled', async () => {
    const paidLate = await f.placeOrder()
    const abandoned = await f.placeOrder()
    await f.age(paidLate.id, 100) // grace ended 10 minutes ago
    await f.age(abandoned.id, 100)
    // The server was down: the transfer landed 20 minutes ago, inside the grace period.
    f.chain.transfer({
      to: paidLate.address,
      amount: paidLate.total.toFixed(2),
      block_timestamp: Date.now() - 20 * 60_000,
    })
    await f.watcher.drain()
    expect(await status(paidLate.id)).toMatchObject({ status: 'paid', late: true })
    expect(await status(abandoned.id)).toMatchObject({ status: 'cancelled' })
    const offered = await rpc(f.t.app, 'secure_get_wallet_address')
    expect(offered.body.success).toBe(true)
  })

  it('keeps a transfer that matches no order (after the grace period) as unmatched', async () => {
    const o = await f.placeOrder()
    await f.age(o.id, 100)
    const stray = f.chain.transfer({ to: o.address, amount: '3', block_timestamp: Date.now() - 60_000 })
    await f.watcher.drain()
    expect(await status(o.id)).toMatchObject({ status: 'cancelled' })
    const unmatched = await f.payments('unmatched')
    expect(unmatched.find((p) => p.tx_id === stray.transaction_id)).toMatchObject({
      to_address: o.address,
      token: 'USDT',
    })
  })

  describe('secure_confirm_transaction', () => {
    const confirm = (id: string, hash: string, extra: Record<string, unknown> = {}) =>
      rpc(f.t.app, 'secure_confirm_transaction', {
        p_order_id: id,
        p_transaction_hash: hash,
        p_order_secret: f.secretOf(id),
        ...extra,
      })

    it('confirms from the chain alone and answers the spec fields; asking again answers the same', async () => {
      const o = await f.placeOrder()
      const sent = f.chain.transfer({ to: o.address, amount: o.total.toFixed(2) })
      // A client claiming a bigger amount changes nothing: the server reads the chain.
      const { body } = await confirm(o.id, sent.transaction_id, { p_amount: 99999, p_timestamp: 1 })
      expect(body).toMatchObject({ success: true, amount: o.total, hash: sent.transaction_id })
      expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{32}$/)
      expect(body.timestamp).toBe(sent.block_timestamp)
      expect((await confirm(o.id, sent.transaction_id)).body).toEqual(body)
      expect(await status(o.id)).toMatchObject({ status: 'paid', access_token: body.access_token })
    })

    it('refuses forged confirmations: unknown hash, wrong recipient, too little, unconfirmed, reverted, counterfeit', async () => {
      const o = await f.placeOrder(2)
      const other = testAddresses(1, 'not ours')[0] as string
      const elsewhere = f.chain.transfer({ to: other, amount: o.total.toFixed(2) })
      const little = f.chain.transfer({ to: o.address, amount: '1' })
      const pending = f.chain.transfer({ to: o.address, amount: o.total.toFixed(2), confirmed: false })
      const fake = f.chain.transfer({ to: o.address, amount: o.total.toFixed(2), contract: COUNTERFEIT })
      const reverted = f.chain.transfer({ to: o.address, amount: o.total.toFixed(2), failed: true })

      expect((await confirm(o.id, randomBytes(32).toString('hex'))).body).toEqual({
        success: false,
        error: confirmMessages.notFound,
      })
      expect((await confirm(o.id, elsewhere.transaction_id)).body).toEqual({
        success: false,
        error: confirmMessages.notForOrder,
      })
      expect((await confirm(o.id, fake.transaction_id)).body).toEqual({
        success: false,
        error: confirmMessages.notForOrder,
      })
      expect((await confirm(o.id, reverted.transaction_id)).body).toEqual({
        success: false,
        error: confirmMessages.failed,
      })
      expect((await confirm(o.id, pending.transaction_id)).body).toEqual({
        success: false,
        error: confirmMessages.notConfirmed,
      })
      const partial = await confirm(o.id, little.transaction_id, { p_amount: o.total })
      expect(partial.body).toEqual({
        success: false,
        error: confirmMessages.underpaid('$1.00', `$${o.total.toFixed(2)}`),
      })
      expect(await status(o.id)).toMatchObject({ status: 'pending', amount_received: 1, access_token: null })
    })

    it('rejects malformed input with 400 and unknown orders with a clear answer', async () => {
      const bad = await rpc(f.t.app, 'secure_confirm_transaction', {
        p_order_id: 'x',
        p_transaction_hash: 'y',
      })
      expect(bad.status).toBe(400)
      expect(bad.body.error).toMatch(/p_order_id|p_transaction_hash/)
      const unknown = await confirm('00000000-0000-4000-8000-000000000000', 'a'.repeat(64))
      expect(unknown.body).toEqual({ success: false, error: confirmMessages.unknownOrder })
    })
  })

  it.each<FaultMode>(['http429', 'http403', 'http503', 'http500', 'timeout', 'malformed'])(
    'explorer fault %s: backs off, recovers, never confirms falsely',
    async (mode) => {
      const unpaid = await f.placeOrder()
      const o = await f.placeOrder()
      f.chain.transfer({ to: o.address, amount: o.total.toFixed(2) })
      f.chain.resetStats()
      f.chain.setFault(mode, 3)
      f.watcher.start()
      try {
        await waitFor('the order to be paid', async () => (await status(o.id)).status === 'paid')
      } finally {
        await f.watcher.stop()
      }
      expect(f.chain.stats().faulted).toBe(3)
      expect(await status(unpaid.id)).toMatchObject({ status: 'pending', amount_received: 0 })
      expect((await f.payments()).filter((p) => p.order_id === o.id)).toHaveLength(1)
    },
  )

  it('two watchers on one database confirm every payment exactly once', async () => {
    const placed = await Promise.all(Array.from({ length: 8 }, () => f.placeOrder()))
    const second = createPaymentWatcher({
      db: f.t.database.db,
      client: createTronClient({ baseUrl: f.chain.url, usdtContract: f.t.env.USDT_CONTRACT, maxRps: 50 }),
      toleranceMicros: f.t.app.services.toleranceMicros,
      fulfil: f.t.app.services.fulfil,
      activeIntervalMs: 0,
      idleMs: 10,
    })
    f.watcher.start()
    second.start()
    try {
      for (const o of placed) f.chain.transfer({ to: o.address, amount: o.total.toFixed(2) })
      await waitFor('every order to be paid', async () => {
        for (const o of placed) if ((await status(o.id)).status !== 'paid') return false
        return true
      })
    } finally {
      await Promise.all([f.watcher.stop(), second.stop()])
    }
    for (const o of placed) {
      expect((await f.payments()).filter((p) => p.order_id === o.id)).toHaveLength(1)
    }
  })

  it('a transfer that lands while no watcher runs is confirmed when one starts again', async () => {
    const o = await f.placeOrder()
    f.watcher.start()
    await f.watcher.stop() // the server goes down
    f.chain.transfer({ to: o.address, amount: o.total.toFixed(2) })
    const restarted = createPaymentWatcher({
      db: f.t.database.db,
      client: createTronClient({ baseUrl: f.chain.url, usdtContract: f.t.env.USDT_CONTRACT, maxRps: 50 }),
      toleranceMicros: f.t.app.services.toleranceMicros,
      fulfil: f.t.app.services.fulfil,
      idleMs: 10,
    })
    restarted.start()
    try {
      await waitFor('the order to be paid', async () => (await status(o.id)).status === 'paid')
    } finally {
      await restarted.stop()
    }
  })
})
