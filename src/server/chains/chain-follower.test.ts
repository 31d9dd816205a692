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
import { addWalletAddresses } from '../wallets/wallets.repo'

// The chain follower against the devchain over real HTTP: every genuine transfer to our addresses is
// recorded once, where the rules say, and orders are paid or expired by chain time.

const COUNTERFEIT = 'TXLAQ63Xg1NAzckPwKHvzw7CSEmLMEqcdj'
const SOME_CONTRACT = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL'

describe.each(engines)('chain follower on %s', (engine) => {
  let f: PaymentFixture

  beforeAll(async () => {
    f = await createPaymentFixture(engine)
  })
  afterAll(() => f.close())

  const status = async (id: string) => f.status(id)
  const ledgerOf = async (txId: string) =>
    f.rows(sql`select * from payments where tx_id = ${txId} order by source, event_index`)

  it('pays an order with the exact amount: token, keys, e-mail once, address cooling down', async () => {
    const o = await f.placeOrder()
    const sent = await f.pay({ to: o.address, amount: o.total.toFixed(2) })
    expect(await status(o.id)).toMatchObject({ status: 'paid', tx_hash: sent.txId, amount_received: o.total })
    const row = await f.order(o.id)
    expect(String(row.access_token)).toMatch(/^[A-Za-z0-9_-]{32}$/)
    const [ledger] = await ledgerOf(sent.txId)
    expect(ledger).toMatchObject({ status: 'credited', order_id: o.id, source: 'log', token: 'USDT' })
    const mails = await f.rows(sql`select * from mail_outbox where order_id = ${o.id}`)
    expect(mails).toHaveLength(1)
    const keys = await f.rows(sql`select * from license_keys where order_id = ${o.id}`)
    expect(keys).toHaveLength(1)
    const [address] = await f.rows(sql`select * from wallet_addresses where address = ${o.address}`)
    expect(address?.leased_order_id).toBeNull()
    expect(new Date(String(address?.cooldown_until)).getTime()).toBeGreaterThan(Date.now())
    // Reading the same blocks again (a restart from an older checkpoint) changes nothing.
    await f.rows(
      sql`update follower_state set checkpoint_block = checkpoint_block - 3, checkpoint_block_id = null`,
    )
    await f.followUntil(sent.block)
    expect(await ledgerOf(sent.txId)).toHaveLength(1)
    expect(await f.rows(sql`select * from mail_outbox where order_id = ${o.id}`)).toHaveLength(1)
    expect((await f.order(o.id)).access_token).toBe(row.access_token)
  })

  it('keeps a transfer to a pool address no order holds, as unmatched: no order', async () => {
    const [spare] = testAddresses(1, `spare-${engine}-${Math.random()}`)
    await addWalletAddresses(f.t.database.db, [spare as string])
    // Leased to nobody: any order would have taken another address first only by chance, so the
    // address is fresh and free; the transfer pays nothing.
    const sent = await f.pay({ to: spare as string, amount: '12.5' })
    expect(await ledgerOf(sent.txId)).toMatchObject([
      { status: 'unmatched', reason: 'no_order', order_id: null },
    ])
  })

  it('a transfer made before its order was placed does not pay it and is kept unmatched', async () => {
    const [fresh] = testAddresses(1, `early-${engine}-${Math.random()}`)
    await addWalletAddresses(f.t.database.db, [fresh as string])
    const early = await f.pay({ to: fresh as string, amount: '49.99' })
    const o = await f.placeOrder({ address: fresh as string })
    expect(o.address).toBe(fresh)
    await f.settle((await f.send({ to: COUNTERFEIT, amount: '1' })).block)
    expect(await status(o.id)).toMatchObject({ status: 'pending', amount_received: 0 })
    expect(await ledgerOf(early.txId)).toMatchObject([{ status: 'unmatched', reason: 'no_order' }])
  })

  it('a transfer after the buyer cancelled is recorded against the cancelled order', async () => {
    const o = await f.placeOrder()
    expect(
      (await rpc(f.t.app, 'secure_cancel_order', { p_order_id: o.id, p_order_secret: f.secretOf(o.id) })).body
        .success,
    ).toBe(true)
    const sent = await f.pay({ to: o.address, amount: o.total.toFixed(2) })
    expect(await ledgerOf(sent.txId)).toMatchObject([
      { status: 'unmatched', reason: 'after_cancelled', order_id: o.id },
    ])
    expect(await status(o.id)).toMatchObject({ status: 'cancelled' })
  })

  it('a transfer made before the buyer cancelled still pays the order (it was pending then)', async () => {
    const o = await f.placeOrder()
    const sent = await f.send({ to: o.address, amount: o.total.toFixed(2) })
    expect(
      (await rpc(f.t.app, 'secure_cancel_order', { p_order_id: o.id, p_order_secret: f.secretOf(o.id) })).body
        .success,
    ).toBe(true)
    await f.settle(sent.block)
    // The cancel happened after the block time; the buyer paid while the order was open.
    const ledger = await ledgerOf(sent.txId)
    if (
      Number(ledger[0]?.block_timestamp) <= new Date(String((await f.order(o.id)).cancelled_at)).getTime()
    ) {
      expect(ledger).toMatchObject([{ status: 'credited', order_id: o.id }])
      expect(await status(o.id)).toMatchObject({ status: 'paid' })
    } else {
      expect(ledger).toMatchObject([{ status: 'unmatched', reason: 'after_cancelled' }])
    }
  })

  it('a second transfer or an overpayment after the order was paid is kept as overpayment', async () => {
    const o = await f.placeOrder()
    await f.pay({ to: o.address, amount: o.total.toFixed(2) })
    const again = await f.pay({ to: o.address, amount: '5' })
    expect(await ledgerOf(again.txId)).toMatchObject([
      { status: 'unmatched', reason: 'after_paid', order_id: o.id },
    ])
    expect(await status(o.id)).toMatchObject({ status: 'paid', amount_received: o.total })
  })

  it('never lets a zero-value or dust transfer pay a cheap order; the percent cap holds to the micro-unit', async () => {
    const [cheap] = await f.rows(sql`
      insert into products (name, description, price_cents, image, features)
      values ('Cheap tool', 'A tool', 199, '/images/products/proxy-checker.svg', '[]'::jsonb) returning id`)
    f.t.app.services.catalog.invalidate()
    const productId = Number(cheap?.id)
    const dust = await f.placeOrder({ productId })
    const zero = await f.pay({ to: dust.address, amount: '0' })
    expect(await ledgerOf(zero.txId)).toMatchObject([
      { status: 'unmatched', reason: 'zero_value', order_id: dust.id },
    ])
    expect(await status(dust.id)).toMatchObject({ status: 'pending' })
    // $1.99 accepts 10 % less at most: 1.791000 pays, 1.790999 does not.
    await f.pay({ to: dust.address, amount: '1.790999' })
    expect(await status(dust.id)).toMatchObject({ status: 'pending' })
    const edge = await f.placeOrder({ productId })
    await f.pay({ to: edge.address, amount: '1.791' })
    expect(await status(edge.id)).toMatchObject({ status: 'paid' })
    // $49.99 accepts 2 dollars less: 47.99 pays, one micro-unit less does not.
    const big = await f.placeOrder({ productId: f.products.find((p) => p.price === 49.99)?.id })
    await f.pay({ to: big.address, amount: '47.989999' })
    expect(await status(big.id)).toMatchObject({ status: 'pending' })
    await f.pay({ to: big.address, amount: '0.000001' })
    expect(await status(big.id)).toMatchObject({ status: 'paid' })
  })

  it('reads several Transfer logs of one transaction, ignoring counterfeit and Approval logs', async () => {
    const a = await f.placeOrder()
    const b = await f.placeOrder()
    const sent = await f.pay({
      logs: [
        { to: a.address, amount: a.total.toFixed(2) },
        { to: b.address, amount: b.total.toFixed(2) },
        { to: b.address, amount: '1000', contract: COUNTERFEIT },
        { to: a.address, amount: '1000', type: 'Approval' },
      ],
    })
    expect(await status(a.id)).toMatchObject({ status: 'paid' })
    expect(await status(b.id)).toMatchObject({ status: 'paid' })
    const ledger = await ledgerOf(sent.txId)
    expect(ledger).toHaveLength(2)
    expect(ledger.map((r) => r.order_id).sort()).toEqual([a.id, b.id].sort())
  })

  it('counts transferFrom and a transfer made by another contract; never a reverted one', async () => {
    const viaFrom = await f.placeOrder()
    await f.pay({ to: viaFrom.address, amount: viaFrom.total.toFixed(2), method: 'transferFrom' })
    expect(await status(viaFrom.id)).toMatchObject({ status: 'paid' })
    const viaContract = await f.placeOrder()
    await f.pay({
      to: viaContract.address,
      amount: viaContract.total.toFixed(2),
      via_contract: SOME_CONTRACT,
    })
    expect(await status(viaContract.id)).toMatchObject({ status: 'paid' })
    const reverted = await f.placeOrder()
    const failed = await f.pay({ to: reverted.address, amount: reverted.total.toFixed(2), failed: true })
    expect(await ledgerOf(failed.txId)).toEqual([])
    expect(await status(reverted.id)).toMatchObject({ status: 'pending' })
  })

  it('TRX to an order placed without a rate is kept unmatched; TRX sent by a contract is recorded', async () => {
    const o = await f.placeOrder()
    // The fixture's orders have a rate; one without is made by removing it, as when the price source was down.
    await f.rows(sql`update orders set native_rate_e8 = null, native_amount_units = null where id = ${o.id}`)
    const trx = await f.pay({ to: o.address, amount: '40', token: 'TRX' })
    expect(await ledgerOf(trx.txId)).toMatchObject([
      { status: 'unmatched', reason: 'trx_without_rate', token: 'TRX' },
    ])
    await f.pay({ to: o.address, amount: o.total.toFixed(2) })
    expect(await status(o.id)).toMatchObject({ status: 'paid' })

    const p = await f.placeOrder()
    const internal = await f.pay({
      to: p.address,
      amount: p.trxAmount as string,
      token: 'TRX',
      via_contract: SOME_CONTRACT,
    })
    expect(await ledgerOf(internal.txId)).toMatchObject([
      { status: 'credited', source: 'internal', order_id: p.id },
    ])
    expect(await status(p.id)).toMatchObject({ status: 'paid' })
  })

  it('survives explorer faults without skipping a block or confirming anything falsely', async () => {
    const o = await f.placeOrder()
    const sent = await f.send({ to: o.address, amount: o.total.toFixed(2) })
    f.chain.mine(f.lag + 1)
    const before = Number(
      (await f.rows(sql`select checkpoint_block from follower_state`))[0]?.checkpoint_block,
    )
    for (const mode of ['http429', 'http403', 'http503', 'http500', 'malformed', 'timeout'] as const) {
      f.chain.setFault(mode, 1)
      const result = await f.follower.runOnce()
      expect(result.error, mode).toBeDefined()
      const now = Number(
        (await f.rows(sql`select checkpoint_block from follower_state`))[0]?.checkpoint_block,
      )
      expect(now, mode).toBe(before)
      expect(await status(o.id)).toMatchObject({ status: 'pending' })
      // The client holds back after a rate limit; let it pass before the next mode.
      await waitFor('the explorer pause to end', () => f.client.pausedUntil() === 0, 35_000)
    }
    // A lagging back end answers {} for blocks and [] for receipts: never read as "no transfers".
    f.chain.setFault('empty', 2, 'gettransactioninfobyblocknum')
    await f.follower.runOnce()
    expect(await status(o.id)).toMatchObject({ status: 'pending' })
    f.chain.setFault('none')
    await f.followUntil(sent.block)
    expect(await status(o.id)).toMatchObject({ status: 'paid' })
    expect(await ledgerOf(sent.txId)).toHaveLength(1)
  }, 120_000)

  it('after 1,200 blocks of downtime, credits everything sent meanwhile exactly once', async () => {
    const orders = []
    for (let i = 0; i < 8; i++) orders.push(await f.placeOrder())
    const from = f.chain.heights().head
    const sent = []
    // The shop is down (nobody runs the follower) while 1,200 blocks are made, with payments in them.
    for (const o of orders) {
      sent.push(await f.send({ to: o.address, amount: o.total.toFixed(2) }))
      f.chain.mine(150)
    }
    f.chain.mine(f.lag)
    const { solid } = f.chain.heights()
    expect(solid - from).toBeGreaterThanOrEqual(1200)
    const results = await f.followUntil(solid)
    expect(results.reduce((n, r) => n + r.blocks, 0)).toBeGreaterThanOrEqual(1200)
    for (const o of orders) expect(await status(o.id)).toMatchObject({ status: 'paid' })
    for (const s of sent) expect(await ledgerOf(s.txId)).toHaveLength(1)
  }, 120_000)
})

describe.each(engines)('chain time decides expiry on %s', (engine) => {
  let f: PaymentFixture
  beforeAll(async () => {
    // A window and a grace of 1.2 s each, and an address cool-down of 3 s, in a pool of one address.
    f = await createPaymentFixture(engine, {
      pool: 1,
      env: {
        PAYMENT_WINDOW_MINUTES: '0.02',
        LATE_PAYMENT_GRACE_MINUTES: '0.02',
        ADDRESS_COOLDOWN_MINUTES: '0.05',
      },
    })
  })
  afterAll(() => f.close())

  const status = async (id: string) => f.status(id)
  const tip = async () => f.settle((await f.send({ to: COUNTERFEIT, amount: '1' })).block)

  it('a transfer made inside the grace period but solidified after it still pays the order, late', async () => {
    const o = await f.placeOrder()
    const order = await f.order(o.id)
    await waitFor(
      'the window to end',
      () => Date.now() > new Date(String(order.window_ends_at)).getTime() + 50,
    )
    const sent = await f.send({ to: o.address, amount: o.total.toFixed(2) })
    f.chain.mine(1)
    expect(sent.timestamp).toBeLessThanOrEqual(new Date(String(order.grace_until)).getTime())
    // Real time passes the grace end before the block is solidified and read.
    await waitFor('the grace to end', () => Date.now() > new Date(String(order.grace_until)).getTime() + 100)
    await f.settle(sent.block + 2)
    expect(await status(o.id)).toMatchObject({ status: 'paid', late: true })
  })

  it('a lapsed lease never frees the address while its order may still be paid; expiry comes from the chain', async () => {
    // Wait out the previous order's cool-down.
    await waitFor(
      'the pool to be free',
      async () => (await rpc(f.t.app, 'secure_get_wallet_address')).body.success,
    )
    const a = await f.placeOrder()
    const orderA = await f.order(a.id)
    await waitFor('A grace end', () => Date.now() > new Date(String(orderA.grace_until)).getTime() + 50)
    // The chain has not passed A's grace end yet: A still holds the only address.
    const refused = await rpc(f.t.app, 'secure_create_order', {
      p_email: 'b@example.com',
      p_items: [{ product: { id: f.products[0]?.id }, quantity: 1 }],
      p_total: f.products[0]?.price,
    })
    expect(refused.body).toMatchObject({ success: false })
    await tip()
    expect(await status(a.id)).toMatchObject({ status: 'cancelled' })
    const late = await f.pay({ to: a.address, amount: a.total.toFixed(2) })
    expect(
      await f.rows(sql`select status, reason, order_id from payments where tx_id = ${late.txId}`),
    ).toMatchObject([{ status: 'unmatched', reason: 'after_grace', order_id: a.id }])
    // After the cool-down the address goes to B, and B's payment (from B's own wallet) pays B.
    await waitFor(
      'the cool-down to end',
      async () => (await rpc(f.t.app, 'secure_get_wallet_address')).body.success,
    )
    const b = await f.placeOrder({ email: 'b@example.com' })
    expect(b.address).toBe(a.address)
    const [buyerOfB] = testAddresses(1, 'buyer of B')
    await f.pay({ to: b.address, amount: b.total.toFixed(2), from: buyerOfB })
    expect(await status(b.id)).toMatchObject({ status: 'paid' })
    expect(await status(a.id)).toMatchObject({ status: 'cancelled' })
  })
})
