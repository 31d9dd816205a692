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

  const status = async (id: string) => f.status(id)
  const trx = (usd: number) => (usd * 4).toFixed(2)

  it('pays with the exact TRX amount and records it in sun', async () => {
    const o = await f.placeOrder()
    expect(o.trxAmount).toBe(trx(o.total))
    const sent = await f.pay({ to: o.address, amount: o.trxAmount as string, token: 'TRX' })
    expect(await status(o.id)).toMatchObject({ status: 'paid', tx_hash: sent.txId, amount_received: o.total })
    const row = await f.order(o.id)
    expect(String(row.native_received_units)).toBe(String(Math.round(o.total * 4 * 1_000_000)))
    expect(String(row.amount_received_units)).toBe('0')
  })

  it('accepts TRX worth the total less the tolerance, and keeps less than that pending', async () => {
    const close = await f.placeOrder({ quantity: 2 })
    const short = await f.placeOrder({ quantity: 2 })
    const a = await f.send({ to: close.address, amount: trx(close.total - 1.9), token: 'TRX' })
    await f.send({ to: short.address, amount: trx(short.total - 2.5), token: 'TRX' })
    await f.settle(a.block)
    expect(await status(close.id)).toMatchObject({ status: 'paid' })
    expect(await status(short.id)).toMatchObject({ status: 'pending', amount_received: short.total - 2.5 })
  })

  it('adds USDT and TRX sent to one order, valuing TRX at the locked rate', async () => {
    const o = await f.placeOrder({ quantity: 2 })
    await f.pay({ to: o.address, amount: trx(10), token: 'TRX' })
    expect(await status(o.id)).toMatchObject({ status: 'pending', amount_received: 10 })
    // A later rate change does not move what the buyer owes.
    f.chain.setPrice('0.5')
    await f.pay({ to: o.address, amount: (o.total - 10).toFixed(2) })
    expect(await status(o.id)).toMatchObject({ status: 'paid', amount_received: o.total })
    f.chain.setPrice('0.25')
  })

  it('secure_confirm_transaction verifies a TRX transfer and refuses forged ones', async () => {
    const o = await f.placeOrder()
    const other = testAddresses(1, 'somebody else')[0] as string
    const elsewhere = await f.send({ to: other, amount: o.trxAmount as string, token: 'TRX' })
    f.chain.mine(f.lag + 1)
    const unconfirmed = await f.send({ to: o.address, amount: o.trxAmount as string, token: 'TRX' })
    f.chain.mine(1)
    const confirm = (hash: string) =>
      rpc(f.t.app, 'secure_confirm_transaction', {
        p_order_id: o.id,
        p_transaction_hash: hash,
        p_order_secret: f.secretOf(o.id),
      })
    expect((await confirm(elsewhere.txId)).body).toEqual({
      success: false,
      error: confirmMessages.notForOrder,
    })
    expect((await confirm(unconfirmed.txId)).body).toEqual({
      success: false,
      error: confirmMessages.notConfirmed,
    })
    // The follower has read every block before the transfer's, as the confirm path requires.
    await f.settle(unconfirmed.block - 1)
    f.chain.mine(1)
    const { body } = await confirm(unconfirmed.txId)
    expect(body).toMatchObject({ success: true, hash: unconfirmed.txId, amount: o.total })
  })
})
