import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createPaymentFixture,
  type PaymentFixture,
  testAddresses,
} from '../../../tests/support/payment-fixture'
import { rpc } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { confirmMessages } from '../../shared/order-status'

// PRICE_SOURCE is fixed:0.25 in tests: 1 TRX = $0.25, so an order of $X asks for 4X TRX.

describe.each(engines)('TRX payments at the locked rate on %s (devchain over HTTP)', (engine) => {
  let f: PaymentFixture

  beforeAll(async () => {
    f = await createPaymentFixture(engine)
  })
  afterAll(() => f.close())

  const status = async (id: string) =>
    (await rpc(f.t.app, 'secure_get_order_status', { p_order_id: id, p_order_secret: f.secretOf(id) })).body
  const trx = (usd: number) => (usd * 4).toFixed(2)

  it('pays with the exact TRX amount and records it in sun', async () => {
    const o = await f.placeOrder()
    expect(o.trxAmount).toBe(trx(o.total))
    const sent = f.chain.transfer({ to: o.address, amount: o.trxAmount as string, token: 'TRX' })
    await f.watcher.drain()
    expect(await status(o.id)).toMatchObject({
      status: 'paid',
      tx_hash: sent.transaction_id,
      amount_received: o.total,
    })
    const row = await f.order(o.id)
    expect(String(row.trx_received_sun)).toBe(String(Math.round(o.total * 4 * 1_000_000)))
    expect(String(row.amount_received_units)).toBe('0')
  })

  it('accepts TRX worth the total less up to 2 dollars, and keeps less than that pending', async () => {
    const close = await f.placeOrder(2)
    f.chain.transfer({ to: close.address, amount: trx(close.total - 1.9), token: 'TRX' })
    const short = await f.placeOrder(2)
    f.chain.transfer({ to: short.address, amount: trx(short.total - 2.5), token: 'TRX' })
    await f.watcher.drain()
    expect(await status(close.id)).toMatchObject({ status: 'paid' })
    expect(await status(short.id)).toMatchObject({ status: 'pending', amount_received: short.total - 2.5 })
  })

  it('adds USDT and TRX sent to one order, valuing TRX at the locked rate (decision 004)', async () => {
    const o = await f.placeOrder(2)
    f.chain.transfer({ to: o.address, amount: trx(10), token: 'TRX' })
    await f.watcher.drain()
    expect(await status(o.id)).toMatchObject({ status: 'pending', amount_received: 10 })
    // A later rate change does not move what the buyer owes.
    f.chain.setPrice('0.5')
    f.chain.transfer({ to: o.address, amount: (o.total - 10).toFixed(2) })
    await f.watcher.drain()
    expect(await status(o.id)).toMatchObject({ status: 'paid', amount_received: o.total })
    f.chain.setPrice('0.25')
  })

  it('secure_confirm_transaction verifies a TRX transfer and refuses forged ones', async () => {
    const o = await f.placeOrder()
    const other = testAddresses(1, 'somebody else')[0] as string
    const elsewhere = f.chain.transfer({ to: other, amount: o.trxAmount as string, token: 'TRX' })
    const unconfirmed = f.chain.transfer({
      to: o.address,
      amount: o.trxAmount as string,
      token: 'TRX',
      confirmed: false,
    })
    const confirm = (hash: string) =>
      rpc(f.t.app, 'secure_confirm_transaction', {
        p_order_id: o.id,
        p_transaction_hash: hash,
        p_order_secret: f.secretOf(o.id),
      })
    expect((await confirm(elsewhere.transaction_id)).body).toEqual({
      success: false,
      error: confirmMessages.notForOrder,
    })
    expect((await confirm(unconfirmed.transaction_id)).body).toEqual({
      success: false,
      error: confirmMessages.notConfirmed,
    })
    const good = f.chain.transfer({ to: o.address, amount: o.trxAmount as string, token: 'TRX' })
    const { body } = await confirm(good.transaction_id)
    expect(body).toMatchObject({ success: true, hash: good.transaction_id, amount: o.total })
  })

  it('TRX sent to an order placed without a TRX rate is kept unmatched, never counted', async () => {
    const o = await f.placeOrder()
    await f.t.database.db.execute(
      sql`update orders set trx_rate_e8 = null, trx_amount_sun = null where id = ${o.id}`,
    )
    const sent = f.chain.transfer({ to: o.address, amount: '400', token: 'TRX' })
    await f.watcher.drain()
    expect(await status(o.id)).toMatchObject({ status: 'pending', amount_received: 0 })
    await f.age(o.id, 100) // the last look reads TRX too
    await f.watcher.drain()
    expect(await status(o.id)).toMatchObject({ status: 'cancelled' })
    expect((await f.payments('unmatched')).find((p) => p.tx_id === sent.transaction_id)).toMatchObject({
      token: 'TRX',
      to_address: o.address,
    })
  })
})
