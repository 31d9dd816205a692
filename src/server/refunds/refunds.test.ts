import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createPaymentFixture,
  type PaymentFixture,
  type PlacedOrder,
  testAddresses,
} from '../../../tests/support/payment-fixture'
import { adminSession, rpc } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { waitFor } from '../../../tests/support/wait'
import { adminMessages } from '../../shared/admin'
import type { AdminRefund } from '../../shared/refunds'
import { refundMessages } from '../../shared/refunds'
import { watchRefundsOnce } from './refund-verify'

// Refunds and returns over real HTTP (app.inject) on the devchain: the operator starts one, the
// buyer names the address through the one-time link, the operator pays from their own wallet (a
// devchain transfer from any address) and the shop proves it on the chain, by watching or by hash.

const ADMIN = { username: 'owner', password: 'correct horse battery staple' }
const ENV = { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, PUBLIC_URL: 'http://shop.test' }
const [PAYER, BUYER_WALLET, OPERATOR_WALLET, STRANGER, OTHER_PAYER, NEW_BUYER] = testAddresses(
  6,
  'refund wallets',
) as [string, string, string, string, string, string]

describe.each(engines)('refunds on %s', (engine) => {
  let f: PaymentFixture
  let session: Record<string, string> = {}

  beforeAll(async () => {
    f = await createPaymentFixture(engine, { env: { ...ENV, WEBHOOK_ALLOW_PRIVATE: 'true' } })
    session = await adminSession(f.t)
    const hook = await admin('secure_save_webhook', {
      p_url: 'http://127.0.0.1:9/hook',
      p_events: ['order.refunded'],
      p_include_keys: false,
      p_enabled: true,
    })
    expect(hook.body.success).toBe(true)
  }, 120_000)
  afterAll(() => f.close())

  const admin = (name: string, payload: object) => rpc(f.t.app, name, payload, session)
  const db = () => f.t.database.db
  const paidOrder = async (token: 'USDT' | 'TRX' = 'USDT', locale?: string): Promise<PlacedOrder> => {
    const o = await f.placeOrder({ email: 'buyer@example.com', locale })
    const amount = token === 'USDT' ? o.total.toFixed(2) : (o.trxAmount as string)
    await f.pay({ to: o.address, amount, token, from: PAYER })
    expect((await f.order(o.id)).status).toBe('paid')
    return o
  }
  const startRefund = async (orderId: string, fields: Record<string, unknown> = {}) => {
    const res = await admin('secure_create_refund', {
      p_order_id: orderId,
      p_token: 'USDT',
      p_full: true,
      p_reason: 'The key did not work',
      p_disable_keys: true,
      p_request_key: randomUUID(),
      ...fields,
    })
    return res.body as { success: boolean; refund: AdminRefund; error?: string }
  }
  /** The one-time link in the refund's e-mail. */
  const linkOf = async (refundId: number) => {
    const rows = await f.rows(
      sql`select text_body from mail_outbox where kind like ${`refund_link:${refundId}:%`} order by id desc`,
    )
    const token = /\/refund\/([A-Za-z0-9_-]{43})/.exec(String(rows[0]?.text_body))?.[1]
    if (!token) throw new Error(`no link mailed for refund ${refundId}`)
    return token
  }
  const refundRow = async (id: number) => (await f.rows(sql`select * from refunds where id = ${id}`))[0] ?? {}
  /** The operator pays from their own wallet: a transfer on the devchain, made final. */
  const operatorPays = async (to: string, amount: string, token: 'USDT' | 'TRX' = 'USDT', extra = {}) => {
    const sent = await f.send({ to, amount, token, from: OPERATOR_WALLET, ...extra })
    f.chain.mine(f.lag + 1)
    return sent
  }
  const verify = (refundId: number, hash: string) =>
    admin('secure_verify_refund', { p_refund_id: refundId, p_transaction_hash: hash })

  it('a full USDT refund: the buyer names the address by the link, the watch proves the payment', async () => {
    const o = await paidOrder('USDT', 'ru')
    const started = await startRefund(o.id)
    expect(started).toMatchObject({
      success: true,
      refund: {
        status: 'awaiting_address',
        token: 'USDT',
        amount: o.total.toFixed(2),
        suggested_address: PAYER,
      },
    })
    const id = started.refund.id
    const [mail] = await f.rows(
      sql`select subject, to_email from mail_outbox where kind like ${`refund_link:${id}:%`}`,
    )
    expect(mail).toMatchObject({ to_email: 'buyer@example.com', subject: expect.stringContaining('Возврат') })
    const token = await linkOf(id)

    const opened = await rpc(f.t.app, 'secure_open_refund', { p_token: token })
    expect(opened.body).toMatchObject({
      success: true,
      refund: { amount: o.total.toFixed(2), token: 'USDT', network: 'TRON', suggested_address: PAYER },
    })
    const given = await rpc(f.t.app, 'secure_submit_refund_address', {
      p_token: token,
      p_address: BUYER_WALLET,
      p_network: 'TRON',
    })
    expect(given.body).toMatchObject({ success: true, refund: { status: 'ready', address: BUYER_WALLET } })

    // Nothing is sent yet: the watch finds nothing and the refund waits.
    expect(await watchRefundsOnce(db(), f.t.app.services.chains)).toEqual([])
    const paid = await operatorPays(BUYER_WALLET, o.total.toFixed(2))
    const done = await watchRefundsOnce(db(), f.t.app.services.chains)
    expect(done.map((r) => r.id)).toEqual([id])
    expect(await refundRow(id)).toMatchObject({ status: 'sent', tx_id: paid.txId, verified_by: 'watch' })
    expect((await f.order(o.id)).status).toBe('refunded')
    const sentMails = await f.rows(sql`select text_body from mail_outbox where kind = ${`refund_sent:${id}`}`)
    expect(sentMails).toHaveLength(1)
    expect(String(sentMails[0]?.text_body)).toContain(`tronscan.org/#/transaction/${paid.txId}`)
    const events = await f.rows(sql`select body from webhook_deliveries where event_type = 'order.refunded'`)
    expect(events.map((e) => JSON.parse(String(e.body)).data)).toContainEqual(
      expect.objectContaining({
        order_id: o.id,
        status: 'refunded',
        refund: expect.objectContaining({ tx_id: paid.txId, fully_refunded: true }),
      }),
    )
    // The admin's filter finds it; its status follows its refunds, never a hand.
    const filtered = await admin('secure_fetch_orders', { p_status: 'refunded' })
    expect((filtered.body.orders as { id: string }[]).map((r) => r.id)).toContain(o.id)
    expect((await admin('secure_update_order_status', { p_order_id: o.id, p_status: 'paid' })).body).toEqual({
      success: false,
      error: adminMessages.refundedStatus,
    })
    // Its keys are disabled (the licence API answers disabled).
    const keys = await f.rows(sql`select order_disabled_reason from license_keys where order_id = ${o.id}`)
    expect(keys.length).toBeGreaterThan(0)
    expect(keys.every((k) => k.order_disabled_reason === 'refunded')).toBe(true)
    // Nothing more to refund; the buyer's dashboard shows the refund.
    expect(await startRefund(o.id)).toMatchObject({ success: false })
    const [{ access_token }] = (await f.rows(sql`select access_token from orders where id = ${o.id}`)) as [
      { access_token: string },
    ]
    const dash = await rpc(f.t.app, 'secure_fetch_dashboard', { p_access_token: access_token })
    expect(dash.body).toMatchObject({
      success: true,
      order: {
        status: 'refunded',
        refunds: [
          {
            status: 'sent',
            amount: o.total.toFixed(2),
            token: 'USDT',
            network: 'TRON',
            disable_keys: true,
            address: BUYER_WALLET,
          },
        ],
      },
    })
    // The CSV exports show it: the refund, and what the order got back.
    const csv = async (name: string) =>
      (await f.t.app.inject({ method: 'GET', url: `/api/admin/export/${name}.csv`, headers: session })).body
    expect(await csv('refunds')).toContain(
      `,refund,${o.id},,The key did not work,USDT,${o.total.toFixed(2)},`,
    )
    const orderLine = (await csv('orders')).split('\r\n').find((l) => l.startsWith(o.id))
    // refunded_usd, refund_pending_usd, then the seller's order id (none: not an invoice).
    expect(orderLine?.endsWith(`,${o.total.toFixed(2)},0.00,`)).toBe(true)
    // The audit log has the operator's start.
    const audit = await f.rows(sql`select actor, target from audit_log where action = 'refund_create'`)
    expect(audit).toContainEqual({ actor: ADMIN.username, target: o.id })
  })

  it('a partial TRX refund proven by the hash the operator pastes; refusals say what does not match', async () => {
    const o = await paidOrder('TRX')
    const started = await startRefund(o.id, {
      p_token: 'TRX',
      p_full: false,
      p_amount: '1.5',
      p_address: BUYER_WALLET,
    })
    expect(started).toMatchObject({
      success: true,
      refund: { status: 'ready', amount: '1.50', address_source: 'operator' },
    })
    const id = started.refund.id
    const audit = await f.rows(
      sql`select details from audit_log where action = 'refund_create' order by id desc limit 1`,
    )
    expect(audit[0]?.details).toMatchObject({
      address_by_operator: BUYER_WALLET,
      amount: '1.50',
      token: 'TRX',
    })

    const wrongRecipient = await operatorPays(STRANGER, '1.5', 'TRX')
    expect((await verify(id, wrongRecipient.txId)).body).toEqual({
      success: false,
      error: `This transaction sent TRX to ${STRANGER}, not to the refund address ${BUYER_WALLET}`,
    })
    const wrongToken = await operatorPays(BUYER_WALLET, '1.5', 'USDT')
    expect((await verify(id, wrongToken.txId)).body).toEqual({
      success: false,
      error: 'This transaction sent no TRX',
    })
    const tooLittle = await operatorPays(BUYER_WALLET, '1.49', 'TRX')
    expect((await verify(id, tooLittle.txId)).body).toEqual({
      success: false,
      error: 'This transaction sent 1.49 TRX; the refund is 1.50 TRX',
    })
    const failed = await operatorPays(BUYER_WALLET, '1.5', 'USDT', { failed: 'OUT_OF_ENERGY' })
    expect((await verify(id, failed.txId)).body).toEqual({
      success: false,
      error: 'This transaction failed on the chain (OUT_OF_ENERGY): nothing was sent',
    })
    const notFinal = await f.send({ to: BUYER_WALLET, amount: '1.5', token: 'TRX', from: OPERATOR_WALLET })
    f.chain.mine(1)
    expect((await verify(id, notFinal.txId)).body).toEqual({
      success: false,
      error: refundMessages.txNotFinal,
    })
    expect((await verify(id, 'ab'.repeat(32))).body).toEqual({
      success: false,
      error: refundMessages.txNotFound,
    })
    expect((await f.order(o.id)).status).toBe('paid')

    f.chain.mine(f.lag + 1)
    const ok = await verify(id, notFinal.txId.toUpperCase())
    expect(ok.body).toMatchObject({
      success: true,
      refund: { status: 'sent', tx_id: notFinal.txId, verified_by: 'hash' },
    })
    expect((await f.order(o.id)).status).toBe('partially_refunded')
    // The same transaction never proves a second refund.
    const second = await startRefund(o.id, {
      p_token: 'TRX',
      p_full: false,
      p_amount: '1',
      p_address: BUYER_WALLET,
    })
    expect((await verify(second.refund.id, notFinal.txId)).body).toEqual({
      success: false,
      error: refundMessages.txUsed,
    })
    // The operator cancels it: a cancelled refund is never proven, and a sent one cannot be cancelled.
    expect((await admin('secure_cancel_refund', { p_refund_id: second.refund.id })).body).toMatchObject({
      success: true,
      refund: { status: 'cancelled' },
    })
    expect((await admin('secure_cancel_refund', { p_refund_id: id })).body).toEqual({
      success: false,
      error: refundMessages.notCancellable,
    })
    // More than is left is refused, with what is left.
    const trxPaid = Number(o.trxAmount)
    const tooMuch = await startRefund(o.id, { p_token: 'TRX', p_full: false, p_amount: String(trxPaid) })
    expect(tooMuch).toMatchObject({
      success: false,
      error: expect.stringContaining('more than what is left'),
    })
  })

  it("a full refund with the keys' box unticked leaves the keys working", async () => {
    const o = await paidOrder()
    const { refund } = await startRefund(o.id, { p_disable_keys: false, p_address: BUYER_WALLET })
    const paid = await operatorPays(BUYER_WALLET, o.total.toFixed(2))
    expect((await verify(refund.id, paid.txId)).body).toMatchObject({ success: true })
    expect((await f.order(o.id)).status).toBe('refunded')
    const keys = await f.rows(sql`select order_disabled_reason from license_keys where order_id = ${o.id}`)
    expect(keys.length).toBeGreaterThan(0)
    expect(keys.every((k) => k.order_disabled_reason === null)).toBe(true)
  })

  it('one transfer never satisfies two refunds to the same address', async () => {
    const a = await paidOrder()
    const b = await paidOrder()
    const ra = await startRefund(a.id, { p_full: false, p_amount: '1', p_address: NEW_BUYER })
    const rb = await startRefund(b.id, { p_full: false, p_amount: '1', p_address: NEW_BUYER })
    const first = await operatorPays(NEW_BUYER, '1')
    const done = await watchRefundsOnce(db(), f.t.app.services.chains)
    expect(done).toHaveLength(1)
    expect(await watchRefundsOnce(db(), f.t.app.services.chains)).toEqual([])
    const states = [await refundRow(ra.refund.id), await refundRow(rb.refund.id)].map((r) => r.status).sort()
    expect(states).toEqual(['ready', 'sent'])
    // The hash of that transfer, pasted for the other one, is refused.
    const waiting = (await refundRow(ra.refund.id)).status === 'ready' ? ra.refund.id : rb.refund.id
    expect((await verify(waiting, first.txId)).body).toEqual({ success: false, error: refundMessages.txUsed })
    // A second transfer proves the other.
    await operatorPays(NEW_BUYER, '1')
    expect((await watchRefundsOnce(db(), f.t.app.services.chains)).map((r) => r.id)).toEqual([waiting])
  })

  it('a refund link works once and expires', async () => {
    const o = await paidOrder()
    const { refund } = await startRefund(o.id, { p_full: false, p_amount: '2' })
    const token = await linkOf(refund.id)
    const submit = (address: string) =>
      rpc(f.t.app, 'secure_submit_refund_address', { p_token: token, p_address: address, p_network: 'TRON' })
    // A bad address is a clear refusal and spends nothing.
    const bad = await rpc(f.t.app, 'secure_submit_refund_address', {
      p_token: token,
      p_address: 'T-not-an-address',
      p_network: 'TRON',
    })
    expect(bad.status).toBe(400)
    expect((await submit(o.address)).body).toEqual({ success: false, error: refundMessages.ourAddress })
    expect((await submit(BUYER_WALLET)).body).toMatchObject({ success: true })
    expect((await submit(STRANGER)).body).toEqual({ success: false, error: refundMessages.linkInvalid })
    expect((await rpc(f.t.app, 'secure_open_refund', { p_token: token })).body).toEqual({
      success: false,
      error: refundMessages.linkInvalid,
    })
    expect((await refundRow(refund.id)).address).toBe(BUYER_WALLET)

    // A new link for another refund; time passes beyond its end.
    const other = await startRefund(o.id, { p_full: false, p_amount: '1' })
    const late = await linkOf(other.refund.id)
    await f.rows(
      sql`update refunds set link_expires_at = now() - interval '1 second' where id = ${other.refund.id}`,
    )
    expect((await rpc(f.t.app, 'secure_open_refund', { p_token: late })).body).toEqual({
      success: false,
      error: refundMessages.linkInvalid,
    })
    // The operator sends a new one: the old stays dead, the new one works.
    expect((await admin('secure_resend_refund_link', { p_refund_id: other.refund.id })).body).toMatchObject({
      success: true,
    })
    const fresh = await linkOf(other.refund.id)
    expect(fresh).not.toBe(late)
    expect((await rpc(f.t.app, 'secure_open_refund', { p_token: fresh })).body).toMatchObject({
      success: true,
    })
  })

  it('concurrent "refund" clicks create one refund', async () => {
    const o = await paidOrder()
    const key = randomUUID()
    const same = await Promise.all(Array.from({ length: 5 }, () => startRefund(o.id, { p_request_key: key })))
    expect(new Set(same.map((r) => r.refund.id)).size).toBe(1)
    // Two forms (two keys) for everything left: the second finds nothing left.
    const both = await Promise.all([startRefund(o.id), startRefund(o.id)])
    expect(both.every((r) => r.success === false)).toBe(true)
    const rows = await f.rows(sql`select id from refunds where order_id = ${o.id}`)
    expect(rows).toHaveLength(1)
  })

  it('refuses bad input with a clear answer and changes nothing', async () => {
    const o = await paidOrder()
    const before = (await f.rows(sql`select count(*)::int as n from refunds`))[0]?.n
    const bad = await admin('secure_create_refund', {
      p_order_id: o.id,
      p_token: 'BTC',
      p_full: true,
      p_reason: 'x',
      p_disable_keys: true,
      p_request_key: randomUUID(),
    })
    expect(bad.status).toBe(400)
    expect((await startRefund(o.id, { p_full: false, p_amount: '1.0000001' })).error).toBe(
      'Enter an amount in USDT with at most 6 decimals',
    )
    expect((await startRefund(randomUUID())).error).toBe(refundMessages.orderNotFound)
    expect(
      (await admin('secure_verify_refund', { p_refund_id: 2_147_483_648, p_transaction_hash: 'x' })).status,
    ).toBe(400)
    expect((await rpc(f.t.app, 'secure_create_refund', { p_order_id: o.id })).status).toBe(401)
    expect((await f.rows(sql`select count(*)::int as n from refunds`))[0]?.n).toBe(before)
  })

  it("counts from the chain's own time at ready: a transfer made before it never proves the refund, whatever this server's clock says", async () => {
    const [wallet] = testAddresses(1, 'refund clock wallet') as [string]
    const o = await paidOrder()
    // Someone pays the wallet just before the refund is ready; the devchain's clock runs ahead of
    // this server's (each block mined is a block time later), as a node's clock may.
    f.chain.mine(100)
    const before = await operatorPays(wallet, '2')
    expect(before.timestamp).toBeGreaterThan(Date.now() + 5_000)
    const { refund } = await startRefund(o.id, { p_full: false, p_amount: '2', p_address: wallet })
    expect(refund.status).toBe('ready')
    const mine = async () =>
      (await watchRefundsOnce(db(), f.t.app.services.chains)).filter((r) => r.id === refund.id)
    expect(await mine()).toEqual([])
    const early = await verify(refund.id, before.txId)
    expect(early.body.error).toMatch(/^This transaction was made before the refund had its address/)
    // The chain's time at ready is what is kept, and shown.
    const kept = (await refundRow(refund.id)).ready_chain_at as Date
    expect(new Date(kept).getTime()).toBeGreaterThanOrEqual(before.timestamp)
    expect(early.body.error).toContain(new Date(kept).toISOString())
    const paid = await operatorPays(wallet, '2')
    expect((await mine()).map((r) => [r.status, r.txId])).toEqual([['sent', paid.txId]])
  })

  it('a token the order was not paid in is refused in words, never swapped for the one it was', async () => {
    const o = await paidOrder()
    const refundable = await admin('secure_fetch_refundable', { p_order_id: o.id })
    expect(refundable.body).toMatchObject({ success: true, stable_token: 'USDT' })
    const before = await f.rows(sql`select count(*)::int as n from refunds where order_id = ${o.id}`)
    const usdc = await startRefund(o.id, { p_token: 'USDC' })
    expect(usdc).toEqual({ success: false, error: 'The order received nothing in USDC' })
    expect(await f.rows(sql`select count(*)::int as n from refunds where order_id = ${o.id}`)).toEqual(before)
    expect((await admin('secure_fetch_refundable', { p_order_id: o.id })).body).toEqual(refundable.body)
    // The token it was paid in still works.
    expect((await startRefund(o.id, { p_full: false, p_amount: '1' })).refund.token).toBe('USDT')
  })

  it("the buyer's address is refused for a network other than the refund's own, and nothing is stored", async () => {
    const o = await paidOrder()
    const { refund } = await startRefund(o.id, { p_full: false, p_amount: '1' })
    const token = await linkOf(refund.id)
    const submit = (p_address: string, p_network: string) =>
      rpc(f.t.app, 'secure_submit_refund_address', { p_token: token, p_address, p_network })
    expect((await submit(BUYER_WALLET, 'BNB Smart Chain')).body).toEqual({
      success: false,
      error: 'This refund is paid on TRON, not on BNB Smart Chain',
    })
    const ru = await rpc(
      f.t.app,
      'secure_submit_refund_address',
      { p_token: token, p_address: BUYER_WALLET, p_network: 'Base' },
      { cookie: 'lang=ru' },
    )
    expect(ru.body).toEqual({ success: false, error: 'Этот возврат выплачивается в сети TRON, а не Base' })
    expect(await refundRow(refund.id)).toMatchObject({ status: 'awaiting_address', address: null })
    // The link still works on its own network.
    expect((await submit(BUYER_WALLET, 'TRON')).body).toMatchObject({ success: true })
    expect((await refundRow(refund.id)).address).toBe(BUYER_WALLET)
  })

  it('returns an overpayment to the address the buyer names', async () => {
    const o = await paidOrder()
    const over = await f.pay({ to: o.address, amount: '3', from: PAYER })
    const [payment] = await f.rows(sql`select id, reason from payments where tx_id = ${over.txId}`)
    expect(payment?.reason).toBe('after_paid')
    const started = await admin('secure_create_return', {
      p_payment_id: payment?.id,
      p_request_key: randomUUID(),
    })
    expect(started.body).toMatchObject({
      success: true,
      refund: { kind: 'return', status: 'awaiting_address', amount: '3.00', suggested_address: PAYER },
    })
    const id = (started.body.refund as AdminRefund).id
    // Returned once only.
    expect(
      (await admin('secure_create_return', { p_payment_id: payment?.id, p_request_key: randomUUID() })).body,
    ).toEqual({ success: false, error: refundMessages.alreadyReturned })
    const token = await linkOf(id)
    await rpc(f.t.app, 'secure_submit_refund_address', {
      p_token: token,
      p_address: PAYER,
      p_network: 'TRON',
    })
    const back = await operatorPays(PAYER, '3')
    expect((await verify(id, back.txId)).body).toMatchObject({ success: true, refund: { status: 'sent' } })
    // The order it reached stays paid: a return is not a refund of it.
    expect((await f.order(o.id)).status).toBe('paid')
    // A returned transfer can no longer be assigned to an order.
    const assign = await admin('secure_assign_payment', { p_payment_id: payment?.id, p_order_id: o.id })
    expect(assign.body).toEqual({ success: false, error: refundMessages.alreadyReturned })
  })
})

describe.each(engines)('the return of a transfer held for review on %s', (engine) => {
  let f: PaymentFixture
  let session: Record<string, string> = {}

  beforeAll(async () => {
    // One address that rests a moment after each order: the next order reuses it.
    f = await createPaymentFixture(engine, { pool: 1, env: { ...ENV, ADDRESS_COOLDOWN_MINUTES: '0.001' } })
    session = await adminSession(f.t)
  }, 120_000)
  afterAll(() => f.close())

  const admin = (name: string, payload: object) => rpc(f.t.app, name, payload, session)
  const nextOrder = (email: string) =>
    waitFor(
      'the address to come back from its cool-down',
      () => f.placeOrder({ email }).catch(() => null),
      30_000,
    )

  it('returns a transfer held for review: the hold ends and the money goes back', async () => {
    const first = await nextOrder('first@example.com')
    await f.pay({ to: first.address, amount: first.total.toFixed(2), from: PAYER })
    const second = await nextOrder('second@example.com')
    expect(second.address).toBe(first.address)
    const held = await f.pay({ to: second.address, amount: second.total.toFixed(2), from: PAYER })
    const [payment] = await f.rows(sql`select id, reason from payments where tx_id = ${held.txId}`)
    expect(payment?.reason).toBe('held_for_review')
    const started = await admin('secure_create_return', {
      p_payment_id: payment?.id,
      p_request_key: randomUUID(),
      p_address: OTHER_PAYER,
    })
    expect(started.body).toMatchObject({ success: true, refund: { status: 'ready', address: OTHER_PAYER } })
    const [after] = await f.rows(sql`select reason from payments where id = ${payment?.id}`)
    expect(after?.reason).toBe('reused_address')
    expect((await f.order(second.id)).status).toBe('pending')
    await f.send({ to: OTHER_PAYER, amount: second.total.toFixed(2), from: OPERATOR_WALLET })
    f.chain.mine(f.lag + 1)
    expect((await watchRefundsOnce(f.t.database.db, f.t.app.services.chains)).map((r) => r.id)).toEqual([
      (started.body.refund as AdminRefund).id,
    ])
  })
})
