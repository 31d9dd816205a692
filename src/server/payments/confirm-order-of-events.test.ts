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
import { confirmMessages } from '../../shared/order-status'
import { tronPoolOf } from '../chains/tron/tron-chain'

// One chain history gives one ledger whoever clicks what: a $49.99 order that receives 20.00 and
// 49.99 (in one block, or the 20.00 a block earlier) ends the same whether the buyer confirmed the
// 49.99 hash first or the follower read the blocks alone. And a confirm call answers within 15 s
// even while the explorer has suspended us for longer.

const [SENDER] = testAddresses(1, 'one buyer') as [string]

type Layout = 'same block, 20.00 first' | 'same block, 49.99 first' | '20.00 one block earlier'

describe.each(engines)('order of events on %s', (engine) => {
  let f: PaymentFixture

  beforeAll(async () => {
    f = await createPaymentFixture(engine)
  })
  afterAll(() => f.close())

  const confirm = (orderId: string, hash: string) =>
    rpc(
      f.t.app,
      'secure_confirm_transaction',
      { p_order_id: orderId, p_transaction_hash: hash, p_order_secret: f.secretOf(orderId) },
      { 'x-forwarded-for': `${orderId}-${hash.slice(0, 8)}` },
    )

  /** The order and its ledger rows, with transaction ids named by role so two runs compare. */
  async function outcome(orderId: string, names: Map<string, string>) {
    const order = await f.order(orderId)
    const [lease] = await f.rows(sql`select ended_at from address_leases where order_id = ${orderId}`)
    const rows = await f.rows(
      sql`select tx_id, amount_units, status, reason, block_timestamp from payments where order_id = ${orderId} order by id`,
    )
    const blockTime = (name: string) =>
      Number(rows.find((r) => names.get(String(r.tx_id)) === name)?.block_timestamp)
    const paidAt = new Date(String(order.paid_at)).getTime()
    return {
      status: order.status,
      received: String(order.amount_received_units),
      txHash: names.get(String(order.tx_hash)),
      paidAtIsBlockOf: ['twenty', 'full'].filter((n) => blockTime(n) === paidAt),
      cooldownFrom: new Date(String(lease?.ended_at)).getTime() === paidAt ? 'paid_at' : 'elsewhere',
      ledger: rows.map((r) => ({
        tx: names.get(String(r.tx_id)),
        units: String(r.amount_units),
        status: r.status,
        reason: r.reason,
      })),
      mails: (await f.rows(sql`select id from mail_outbox where order_id = ${orderId}`)).length,
    }
  }

  function solidifyUpTo(block: number) {
    const { solid } = f.chain.heights()
    if (solid < block) f.chain.mine(block - solid)
    expect(f.chain.heights().solid).toBe(block)
  }

  async function run(layout: Layout, when: 'never' | 'follower read the block before' | 'follower behind') {
    const product = f.products.find((p) => p.price === 49.99)
    if (!product) throw new Error('the seed has a 49.99 product')
    const o = await f.placeOrder({ productId: product.id })
    const twentyReq = { to: o.address, amount: '20.00', from: SENDER }
    const fullReq = { to: o.address, amount: '49.99', from: SENDER }
    let twenty: Awaited<ReturnType<typeof f.send>>
    let full: Awaited<ReturnType<typeof f.send>>
    if (layout === 'same block, 49.99 first') {
      full = await f.send(fullReq)
      twenty = await f.send(twentyReq)
    } else {
      twenty = await f.send(twentyReq)
      if (layout === '20.00 one block earlier') f.chain.mine(1)
      full = await f.send(fullReq)
    }
    if (layout === '20.00 one block earlier') expect(full.block).toBe(twenty.block + 1)
    else expect(full.block).toBe(twenty.block)
    const names = new Map([
      [twenty.txId, 'twenty'],
      [full.txId, 'full'],
    ])
    if (when === 'follower read the block before') {
      solidifyUpTo(full.block - 1)
      await f.followUntil(full.block - 1)
      solidifyUpTo(full.block)
      const answer = (await confirm(o.id, full.txId)).body
      expect(answer).toMatchObject({ success: true })
      expect((await f.order(o.id)).status).toBe('paid')
    }
    if (when === 'follower behind') {
      solidifyUpTo(full.block)
      const answer = (await confirm(o.id, full.txId)).body
      // Either it could settle as the follower would, or it leaves that to the follower.
      expect([true, confirmMessages.confirming]).toContain(answer.success || answer.error)
    }
    solidifyUpTo(full.block)
    await f.followUntil(full.block)
    return outcome(o.id, names)
  }

  for (const layout of [
    'same block, 20.00 first',
    'same block, 49.99 first',
    '20.00 one block earlier',
  ] as const) {
    it(`${layout}: the same ledger, paid_at and tx_hash whether or when the buyer confirmed`, async () => {
      const alone = await run(layout, 'never')
      expect(alone.status).toBe('paid')
      expect(alone.received).toBe('69990000')
      expect(alone.ledger.every((r) => r.status === 'credited')).toBe(true)
      expect(alone.paidAtIsBlockOf).toContain('full')
      expect(alone.cooldownFrom).toBe('paid_at')
      expect(alone.mails).toBe(1)
      expect(await run(layout, 'follower read the block before')).toEqual(alone)
      expect(await run(layout, 'follower behind')).toEqual(alone)
    })
  }

  it('says the payment is being confirmed while the follower has not read the earlier blocks', async () => {
    const product = f.products.find((p) => p.price === 49.99) as { id: number }
    const o = await f.placeOrder({ productId: product.id })
    const twenty = await f.send({ to: o.address, amount: '20.00', from: SENDER })
    f.chain.mine(1)
    const full = await f.send({ to: o.address, amount: '49.99', from: SENDER })
    solidifyUpTo(full.block)
    expect((await confirm(o.id, full.txId)).body).toEqual({
      success: false,
      error: confirmMessages.confirming,
    })
    // Nothing recorded ahead of the follower.
    expect(await f.rows(sql`select id from payments where order_id = ${o.id}`)).toEqual([])
    await f.followUntil(full.block)
    const order = await f.order(o.id)
    expect(order).toMatchObject({ status: 'paid', tx_hash: full.txId })
    expect(String(order.amount_received_units)).toBe('69990000')
    expect(new Date(String(order.paid_at)).getTime()).toBe(full.timestamp)
    expect(twenty.block).toBe(full.block - 1)
    // Asked again, the buyer reads the payment.
    expect((await confirm(o.id, full.txId)).body).toMatchObject({ success: true, hash: full.txId })
  })

  it('answers within 15 s, saying the check is delayed, while the explorer has suspended us for longer', async () => {
    const o = await f.placeOrder()
    const sent = await f.send({ to: o.address, amount: o.total.toFixed(2), from: SENDER })
    f.chain.mine(f.lag + 1)
    // Back-to-back rate limits on the shop's own client: 429, then 403 "suspended for 60s".
    f.chain.setFault('http429', 1)
    expect((await tronPoolOf(f.t.app.services.chains.require('tron')).getSolidHead()).status).toBe('error')
    // The provider pool sends nothing to a provider while its short pause lasts.
    await waitFor(
      'the first pause to end',
      () => tronPoolOf(f.t.app.services.chains.require('tron')).pausedUntil() === 0,
    )
    f.chain.setFault('http403', 1, undefined, 60)
    const suspended = await tronPoolOf(f.t.app.services.chains.require('tron')).getSolidHead()
    expect(suspended).toMatchObject({ status: 'error', kind: 'rate_limited' })
    expect(tronPoolOf(f.t.app.services.chains.require('tron')).pausedUntil()).toBeGreaterThan(
      Date.now() + 50_000,
    )
    const began = Date.now()
    const answer = await confirm(o.id, sent.txId)
    expect(Date.now() - began).toBeLessThan(15_000)
    expect(answer.body).toEqual({ success: false, error: confirmMessages.explorerDown })
    // The provider pool does not queue a read behind the pause: it answers at once.
    const asked = Date.now()
    const queued = await tronPoolOf(f.t.app.services.chains.require('tron')).getSolidHead({
      signal: AbortSignal.timeout(200),
    })
    expect(queued).toMatchObject({ status: 'error', kind: 'rate_limited' })
    expect(Date.now() - asked).toBeLessThan(1_000)
    expect(Date.now() - began).toBeLessThan(15_000)
    // The follower (its own explorer budget here) still pays the order.
    await f.followUntil(sent.block)
    expect((await f.order(o.id)).status).toBe('paid')
  })
})
