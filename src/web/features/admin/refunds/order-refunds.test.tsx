// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import '../../../test/setup-dom'
import type { AdminRefund } from '../../../../shared/refunds'
import { renderWithProviders } from '../../../test/render'
import { type RpcServer, startRpcServer } from '../../../test/rpc-server'
import { OrderRefunds } from './order-refunds'

// The order detail's refunds against the RPC stand-in (a real local HTTP server): Start refund sends
// one request however fast it is clicked, Cancel refund asks first, and the card's QR holds the
// payment URI with the amount.

let rpc: RpcServer
beforeAll(async () => {
  rpc = await startRpcServer('/admin')
})
afterAll(() => rpc.close())

const ORDER_ID = '6f1c2d3e-4b5a-4c6d-8e7f-901234567890'
const BUYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const URI = `ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=${BUYER}&uint256=12500000000000000000`
const refund = (over: Partial<AdminRefund> = {}): AdminRefund => ({
  id: 7,
  kind: 'refund',
  order_id: ORDER_ID,
  payment_id: null,
  reason: 'Wrong product',
  token: 'USDT',
  network: 'BNB Smart Chain',
  amount: '12.50',
  status: 'ready',
  address: BUYER,
  address_source: 'buyer',
  suggested_address: null,
  email: 'buyer@example.com',
  disable_keys: true,
  link_expires_at: null,
  link_used_at: null,
  ready_at: '2026-11-25T10:00:00.000Z',
  sent_at: null,
  cancelled_at: null,
  tx_id: null,
  tx_url: null,
  tx_from: null,
  tx_amount: null,
  verified_by: null,
  created_by: 'admin',
  created_at: '2026-11-25T10:00:00.000Z',
  payment_uri: URI,
  ...over,
})

beforeEach(() => {
  rpc.calls.length = 0
  rpc.reply('secure_fetch_refundable', {
    success: true,
    paid: true,
    usdt: '12.50',
    trx: '0.00',
    stable_token: 'USDT',
  })
  rpc.reply('secure_fetch_refunds', { success: true, refunds: [] })
})

describe('order refunds (admin)', () => {
  it('Start refund sends one request however fast it is clicked', async () => {
    rpc.reply('secure_create_refund', { success: true, refund: refund({ status: 'awaiting_address' }) })
    renderWithProviders(<OrderRefunds orderId={ORDER_ID} />, { admin: true })
    fireEvent.click(await screen.findByRole('button', { name: 'Refund…' }))
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'Wrong product' } })
    // Three clicks as a person's rapid ones arrive: one after another, before React has re-rendered.
    const submit = screen.getByRole('button', { name: 'Start refund' })
    submit.click()
    submit.click()
    submit.click()
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Start refund' })).toBeNull())
    expect(rpc.callsTo('secure_create_refund')).toHaveLength(1)
  })

  it('Cancel refund asks first; only Yes cancels', async () => {
    rpc.reply('secure_fetch_refunds', { success: true, refunds: [refund()] })
    rpc.reply('secure_cancel_refund', { success: true, refund: refund({ status: 'cancelled' }) })
    renderWithProviders(<OrderRefunds orderId={ORDER_ID} />, { admin: true })
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel refund' }))
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this refund?' })
    expect(dialog.textContent).toMatch(/12\.50?\s+USDT on BNB Smart Chain/)
    expect(rpc.callsTo('secure_cancel_refund')).toHaveLength(0)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep the refund' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(rpc.callsTo('secure_cancel_refund')).toHaveLength(0)

    fireEvent.click(screen.getByRole('button', { name: 'Cancel refund' }))
    const again = await screen.findByRole('dialog', { name: 'Cancel this refund?' })
    fireEvent.click(within(again).getByRole('button', { name: 'Cancel refund' }))
    await waitFor(() => expect(rpc.callsTo('secure_cancel_refund')).toEqual([{ p_refund_id: 7 }]))
  })

  it('the QR of a ready refund holds the payment URI with the amount, the address is shown whole', async () => {
    rpc.reply('secure_fetch_refunds', { success: true, refunds: [refund()] })
    renderWithProviders(<OrderRefunds orderId={ORDER_ID} />, { admin: true })
    const qr = await screen.findByRole('img', { name: /QR code of the payment of 12\.50 USDT/ })
    expect(qr.getAttribute('aria-label')).toContain(URI)
    expect((screen.getByRole('textbox', { name: 'Address' }) as HTMLTextAreaElement).value).toBe(BUYER)
  })
})
