import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPaymentFixture, type PaymentFixture } from '../../../tests/support/payment-fixture'
import { adminSession, rpc } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { waitFor } from '../../../tests/support/wait'
import { adminMessages } from '../../shared/admin'
import { confirmMessages } from '../../shared/order-status'
import { findFreeAddress } from '../wallets/wallets.repo'
import { formatReport, reconcile } from './reconcile'

// Every way an order becomes paid goes through one settlement: the buyer's transaction hash, the
// admin's status change, the admin's assignment of an unmatched transfer, and the chain follower.

const ADMIN = { username: 'owner', password: 'correct horse battery staple' }

describe.each(engines)('paths to paid on %s', (engine) => {
  let f: PaymentFixture
  let session: Record<string, string> = {}

  beforeAll(async () => {
    f = await createPaymentFixture(engine, {
      env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, PUBLIC_URL: 'http://shop.test' },
    })
    session = await adminSession(f.t)
  })
  afterAll(() => f.close())

  const admin = (name: string, payload: object) => rpc(f.t.app, name, payload, session)
  const status = async (id: string) => f.status(id)
  const confirm = (orderId: string, hash: string) =>
    rpc(
      f.t.app,
      'secure_confirm_transaction',
      { p_order_id: orderId, p_transaction_hash: hash, p_order_secret: f.secretOf(orderId) },
      { 'x-forwarded-for': orderId },
    )
  const mails = async (id: string) => f.rows(sql`select * from mail_outbox where order_id = ${id}`)

  it("the buyer's hash pays before the follower reaches the block, and the follower adds nothing", async () => {
    const o = await f.placeOrder()
    const sent = await f.send({ to: o.address, amount: o.total.toFixed(2) })
    // In a block, not solidified yet.
    f.chain.mine(1)
    expect((await confirm(o.id, sent.txId)).body).toEqual({
      success: false,
      error: confirmMessages.notConfirmed,
    })
    // The follower has read every block before the transfer's, as the confirm path requires.
    await f.settle(sent.block - 1)
    f.chain.mine(1)
    const answer = (await confirm(o.id, sent.txId)).body
    expect(answer).toMatchObject({ success: true, hash: sent.txId, amount: o.total })
    const token = (await f.order(o.id)).access_token
    expect(answer.access_token).toBe(token)
    await f.followUntil(sent.block)
    expect(await f.rows(sql`select * from payments where tx_id = ${sent.txId}`)).toHaveLength(1)
    expect(await mails(o.id)).toHaveLength(1)
    // Asking again answers as before.
    expect((await confirm(o.id, sent.txId)).body).toMatchObject({ success: true, access_token: token })
  })

  it('refuses a hash that paid another order, one not found, and one for another address', async () => {
    const a = await f.placeOrder()
    const b = await f.placeOrder()
    const sent = await f.pay({ to: a.address, amount: a.total.toFixed(2) })
    expect((await confirm(b.id, sent.txId)).body).toEqual({
      success: false,
      error: confirmMessages.alreadyUsed,
    })
    expect((await confirm(b.id, 'ab'.repeat(32))).body).toEqual({
      success: false,
      error: confirmMessages.notFound,
    })
    const other = await f.pay({ to: a.address, amount: '1', token: 'TRX' })
    expect((await confirm(b.id, other.txId)).body).toEqual({
      success: false,
      error: confirmMessages.notForOrder,
    })
  })

  it('admin: paid by hand delivers once; back to pending and paid again keeps the token and keys', async () => {
    const o = await f.placeOrder()
    expect((await admin('secure_update_order_status', { p_order_id: o.id, p_status: 'paid' })).body).toEqual({
      success: true,
    })
    const first = await f.order(o.id)
    expect(first.status).toBe('paid')
    expect(first.access_token).toBeTruthy()
    const keys = await f.rows(sql`select key from license_keys where order_id = ${o.id}`)
    expect(
      await admin('secure_update_order_status', { p_order_id: o.id, p_status: 'pending' }),
    ).toMatchObject({
      body: { success: true },
    })
    expect((await f.order(o.id)).status).toBe('pending')
    await admin('secure_update_order_status', { p_order_id: o.id, p_status: 'completed' })
    const again = await f.order(o.id)
    expect(again.status).toBe('completed')
    expect(again.access_token).toBe(first.access_token)
    expect(await f.rows(sql`select key from license_keys where order_id = ${o.id}`)).toEqual(keys)
    expect(await mails(o.id)).toHaveLength(1)
  })

  it('admin: a cancelled order whose address went to another order cannot be set back to pending', async () => {
    const small = await createPaymentFixture(engine, { pool: 1, env: { ADDRESS_COOLDOWN_MINUTES: '0.001' } })
    try {
      const db = small.t.database.db
      const a = await small.placeOrder()
      await rpc(small.t.app, 'secure_cancel_order', {
        p_order_id: a.id,
        p_order_secret: small.secretOf(a.id),
      })
      await waitFor(
        'the address to cool down',
        async () => (await findFreeAddress(db, 'tron')) === a.address,
        5000,
      )
      const b = await small.placeOrder({ email: 'b@example.com' })
      expect(b.address).toBe(a.address)
      const { updateOrderStatus } = await import('../admin/order-admin')
      const refused = await updateOrderStatus(db, a.id, 'pending', small.t.app.services.rules)
      expect(refused).toEqual({ kind: 'refused', error: adminMessages.reopenAddressInUse })
      expect((await small.order(a.id)).status).toBe('cancelled')
      // B's payment pays B, never A.
      await small.pay({ to: b.address, amount: b.total.toFixed(2) })
      expect((await small.order(b.id)).status).toBe('paid')
      expect((await small.order(a.id)).status).toBe('cancelled')
    } finally {
      await small.close()
    }
  })

  it('admin: a cancelled order gets its own address back when nobody took it', async () => {
    const o = await f.placeOrder()
    await rpc(f.t.app, 'secure_cancel_order', { p_order_id: o.id, p_order_secret: f.secretOf(o.id) })
    expect(
      (await admin('secure_update_order_status', { p_order_id: o.id, p_status: 'pending' })).body,
    ).toEqual({ success: true })
    const row = await f.order(o.id)
    expect(row.status).toBe('pending')
    expect(new Date(String(row.window_ends_at)).getTime()).toBeGreaterThan(Date.now())
    await f.pay({ to: o.address, amount: o.total.toFixed(2) })
    expect(await status(o.id)).toMatchObject({ status: 'paid' })
  })

  it('admin: assigning an unmatched transfer settles the order; a credited one is refused with a message', async () => {
    const o = await f.placeOrder()
    const stray = await f.placeOrder()
    await rpc(f.t.app, 'secure_cancel_order', { p_order_id: stray.id, p_order_secret: f.secretOf(stray.id) })
    const sent = await f.pay({ to: stray.address, amount: o.total.toFixed(2) })
    const [row] = await f.rows(sql`select id, status, reason from payments where tx_id = ${sent.txId}`)
    expect(row).toMatchObject({ status: 'unmatched', reason: 'after_cancelled' })
    const assigned = await admin('secure_assign_payment', { p_payment_id: Number(row?.id), p_order_id: o.id })
    expect(assigned.body).toEqual({ success: true, paid: true })
    expect(await status(o.id)).toMatchObject({ status: 'paid' })
    expect(await mails(o.id)).toHaveLength(1)
    const again = await admin('secure_assign_payment', {
      p_payment_id: Number(row?.id),
      p_order_id: stray.id,
    })
    expect(again.status).toBe(200)
    expect(again.body).toEqual({ success: false, error: adminMessages.paymentAlreadyCredited })
  })

  it('deleting an order keeps its transfers in the ledger as unmatched', async () => {
    const o = await f.placeOrder()
    const sent = await f.pay({ to: o.address, amount: o.total.toFixed(2) })
    expect((await admin('secure_delete_order', { p_order_id: o.id })).body).toEqual({ success: true })
    expect(
      await f.rows(sql`select status, reason, order_id from payments where tx_id = ${sent.txId}`),
    ).toEqual([{ status: 'unmatched', reason: 'order_deleted', order_id: null }])
  })

  it('reconciliation ties out after all of the above', async () => {
    const answer = (await admin('secure_reconcile', {})).body
    expect(answer).toMatchObject({ success: true, ties: true, order_mismatches: [] })
    const rows = answer.rows as { address: string; ledger_count: number }[]
    expect(rows.length).toBeGreaterThan(0)
    const one = rows.find((r) => r.ledger_count > 0) as { address: string }
    const checked = (await admin('secure_reconcile', { p_chain_address: one.address })).body
    expect(checked).toMatchObject({ success: true, ties: true })
    expect((checked.rows as { chain: string | null }[])[0]?.chain).not.toBeNull()
  })

  it('reconciliation says when the chain holds a transfer the ledger has not recorded', async () => {
    const o = await f.placeOrder()
    const sent = await f.send({ to: o.address, amount: '3' })
    f.chain.mine(f.lag + 1)
    // Solidified on the chain, not read by the follower yet.
    const before = await reconcile(f.t.database.db, {
      fromMs: Date.now() - 3_600_000,
      toMs: Date.now() + 3_600_000,
      addresses: [o.address],
      adapter: f.t.app.services.chains.require('tron'),
    })
    expect(before.ties).toBe(false)
    expect(before.rows.find((r) => r.token === 'USDT')).toMatchObject({
      chainUnits: 3_000_000n,
      ledgerUnits: 0n,
    })
    expect(formatReport(before)).toContain('DOES NOT TIE OUT')
    await f.followUntil(sent.block)
    const after = await reconcile(f.t.database.db, {
      fromMs: Date.now() - 3_600_000,
      toMs: Date.now() + 3_600_000,
      addresses: [o.address],
      adapter: f.t.app.services.chains.require('tron'),
    })
    expect(after.ties).toBe(true)
    expect(formatReport(after)).toContain('TIES OUT')
  })
})
