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
import { confirmMessages } from '../../shared/order-status'
import { loadSettings, saveSettings } from '../settings/settings'

// An address goes to a new order after its cool-down. A payer of an earlier order who sends to it
// again (from their wallet history) must not deliver a stranger's order: the order is held for the
// operator, who releases it (paid through the one settle path) or refuses it (the transfer stays
// unmatched and the order waits for its own buyer).

const ADMIN = { username: 'owner', password: 'correct horse battery staple' }
const [EARLIER_PAYER, NEW_BUYER] = testAddresses(2, 'reuse senders') as [string, string]

describe.each(engines)('a reused address on %s', (engine) => {
  let f: PaymentFixture
  let session: Record<string, string> = {}

  beforeAll(async () => {
    // One address, resting a moment after each order: every order gets the same address.
    f = await createPaymentFixture(engine, {
      pool: 1,
      env: {
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        PUBLIC_URL: 'http://shop.test',
        ADDRESS_COOLDOWN_MINUTES: '0.001',
      },
    })
    const db = f.t.database.db
    session = await adminSession(f.t)
    const settings = await loadSettings(db)
    await saveSettings(db, {
      ...settings,
      operatorEmail: 'ops@example.com',
      alerts: { ...settings.alerts, payment_unmatched: true },
    })
  })
  afterAll(() => f.close())

  const admin = (name: string, payload: object) => rpc(f.t.app, name, payload, session)
  const adminOrder = async (id: string) => {
    const { body } = await admin('secure_fetch_orders', { p_search: id })
    return (body.orders as { id: string; status: string; held: boolean }[]).find((o) => o.id === id)
  }
  /** The next order, once the address has rested after the previous one. */
  const nextOrder = (email: string) =>
    waitFor('the address to come back from its cool-down', () => f.placeOrder({ email }).catch(() => null))
  const delivered = async (id: string) => ({
    keys: (await f.rows(sql`select id from license_keys where order_id = ${id}`)).length,
    mails: (await f.rows(sql`select id from mail_outbox where order_id = ${id}`)).length,
  })

  let first: PlacedOrder
  let stranger: PlacedOrder

  it("holds a stranger's order that the earlier payer's re-sent transfer would pay, and alerts the operator", async () => {
    first = await f.placeOrder({ email: 'earlier@example.com' })
    await f.pay({ to: first.address, amount: first.total.toFixed(2), from: EARLIER_PAYER })
    expect((await f.order(first.id)).status).toBe('paid')

    stranger = await nextOrder('stranger@example.com')
    expect(stranger.address).toBe(first.address)
    const resent = await f.pay({
      to: stranger.address,
      amount: stranger.total.toFixed(2),
      from: EARLIER_PAYER,
    })

    expect((await f.order(stranger.id)).status).toBe('pending')
    expect(await delivered(stranger.id)).toEqual({ keys: 0, mails: 0 })
    expect(
      await f.rows(sql`select status, reason, order_id from payments where tx_id = ${resent.txId}`),
    ).toEqual([{ status: 'unmatched', reason: 'held_for_review', order_id: stranger.id }])
    const alerts = await f.rows(sql`select text from operator_alerts where text like ${`%${stranger.id}%`}`)
    expect(alerts).toHaveLength(1)
    expect(String(alerts[0]?.text)).toContain('held for review')
    expect(await adminOrder(stranger.id)).toMatchObject({ status: 'pending', held: true })
    expect(await adminOrder(first.id)).toMatchObject({ held: false })

    // The buyer's "I already paid" with that hash neither pays nor misleads.
    const answer = await rpc(f.t.app, 'secure_confirm_transaction', {
      p_order_id: stranger.id,
      p_transaction_hash: resent.txId,
      p_order_secret: f.secretOf(stranger.id),
    })
    expect(answer.body).toEqual({ success: false, error: confirmMessages.held })
    expect((await f.order(stranger.id)).status).toBe('pending')
  })

  it('the operator releases it: paid and delivered once, through the one settle path', async () => {
    const released = await admin('secure_review_held_order', {
      p_order_id: stranger.id,
      p_decision: 'release',
    })
    expect(released.body).toEqual({ success: true, paid: true })
    const order = await f.order(stranger.id)
    expect(order.status).toBe('paid')
    expect(order.access_token).toBeTruthy()
    expect(await delivered(stranger.id)).toEqual({ keys: 1, mails: 1 })
    expect(await adminOrder(stranger.id)).toMatchObject({ status: 'paid', held: false })
    const again = await admin('secure_review_held_order', { p_order_id: stranger.id, p_decision: 'release' })
    expect(again.body).toEqual({ success: false, error: adminMessages.notHeld })
    const audit = await f.rows(sql`select action, target from audit_log where action = 'order_review'`)
    expect(audit).toEqual([{ action: 'order_review', target: stranger.id }])
  })

  it("the operator refuses it: the transfer stays unmatched and the order's own buyer pays it", async () => {
    const next = await nextOrder('next@example.com')
    expect(next.address).toBe(first.address)
    const resent = await f.pay({ to: next.address, amount: next.total.toFixed(2), from: EARLIER_PAYER })
    expect(await adminOrder(next.id)).toMatchObject({ status: 'pending', held: true })

    const refused = await admin('secure_review_held_order', { p_order_id: next.id, p_decision: 'refuse' })
    expect(refused.body).toEqual({ success: true, paid: false })
    expect(
      await f.rows(sql`select status, reason, order_id from payments where tx_id = ${resent.txId}`),
    ).toEqual([{ status: 'unmatched', reason: 'reused_address', order_id: next.id }])
    expect(await adminOrder(next.id)).toMatchObject({ status: 'pending', held: false })
    expect(await delivered(next.id)).toEqual({ keys: 0, mails: 0 })
    const unmatched = (await admin('secure_fetch_unmatched_payments', {})).body.payments as {
      tx_id: string
    }[]
    expect(unmatched.map((p) => p.tx_id)).toContain(resent.txId)

    // A sender with no earlier order at this address pays as always.
    const own = await f.pay({ to: next.address, amount: next.total.toFixed(2), from: NEW_BUYER })
    expect(await f.order(next.id)).toMatchObject({ status: 'paid', tx_hash: own.txId })
    expect(await delivered(next.id)).toEqual({ keys: 1, mails: 1 })
  })

  it('refuses a review of an order that holds nothing, and an unknown order, with a message', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000'
    expect(
      (await admin('secure_review_held_order', { p_order_id: unknown, p_decision: 'release' })).body,
    ).toEqual({
      success: false,
      error: `Order ${unknown} not found`,
    })
    expect(
      (await admin('secure_review_held_order', { p_order_id: first.id, p_decision: 'refuse' })).body,
    ).toEqual({ success: false, error: adminMessages.notHeld })
    const bad = await admin('secure_review_held_order', { p_order_id: first.id, p_decision: 'pay' })
    expect(bad.status).toBe(400)
  })
})
