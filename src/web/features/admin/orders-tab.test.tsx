// @vitest-environment happy-dom
import { QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import '../../test/setup-dom'
import type { AdminOrder } from '../../../shared/admin'
import { createQueryClient } from '../../app/app'
import { WithI18n } from '../../test/i18n'
import { type RpcServer, startRpcServer } from '../../test/rpc-server'
import { OrdersTab } from './orders-tab'

let rpc: RpcServer
beforeAll(async () => {
  rpc = await startRpcServer('/admin/orders')
})
afterAll(() => rpc.close())

const HELD_ID = '6f1c2d3e-4b5a-4c6d-8e7f-901234567890'
const order = (held: boolean, status: AdminOrder['status'] = 'pending'): AdminOrder => ({
  id: HELD_ID,
  created_at: '2026-11-25T10:00:00.000Z',
  email: 'stranger@example.com',
  items: [{ product: { id: 1, name: 'Tool', price: 49.99 }, quantity: 1 }],
  total: 49.99,
  wallet_address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
  status,
  amount_received: 0,
  trx_amount: null,
  trx_received: '0',
  paid_at: null,
  tx_hash: null,
  late: false,
  underpaid: false,
  held,
  discount_code: null,
  discount: 0,
})
const answer = (o: AdminOrder) => ({ success: true, orders: [o], total_count: 1, page: 1, page_size: 25 })

describe('admin orders tab: an order held for review', () => {
  it('shows the hold and releases it through secure_review_held_order', async () => {
    rpc.reply('secure_fetch_orders', answer(order(true)))
    rpc.reply('secure_fetch_unmatched_payments', { success: true, payments: [] })
    rpc.reply('secure_review_held_order', { success: true, paid: true })
    render(
      <WithI18n>
        <QueryClientProvider client={createQueryClient()}>
          <OrdersTab />
        </QueryClientProvider>
      </WithI18n>,
    )
    const release = await screen.findAllByRole('button', { name: `Release held payment of order ${HELD_ID}` })
    expect(screen.getAllByText('Held for review').length).toBeGreaterThan(0)

    rpc.reply('secure_fetch_orders', answer(order(false, 'paid')))
    fireEvent.click(release[0] as HTMLElement)
    await waitFor(() =>
      expect(rpc.callsTo('secure_review_held_order')).toEqual([
        { p_order_id: HELD_ID, p_decision: 'release' },
      ]),
    )
    // The list is read again: the order is paid and no longer held.
    await waitFor(() => expect(screen.queryAllByText('Held for review')).toHaveLength(0))
    expect(
      within(document.body).queryAllByRole('button', { name: `Release held payment of order ${HELD_ID}` }),
    ).toHaveLength(0)
  })
})
