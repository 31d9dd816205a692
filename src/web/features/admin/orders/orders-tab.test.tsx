// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import '../../../test/setup-dom'
import type { AdminOrder } from '../../../../shared/admin'
import { renderWithProviders, toastTexts } from '../../../test/render'
import { type RpcServer, startRpcServer } from '../../../test/rpc-server'
import { OrdersTab } from './orders-tab'

let rpc: RpcServer
beforeAll(async () => {
  rpc = await startRpcServer('/admin/orders')
})
afterAll(() => rpc.close())

const HELD_ID = '6f1c2d3e-4b5a-4c6d-8e7f-901234567890'
const OTHER_ID = '7a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d'
const order = (held: boolean, status: AdminOrder['status'] = 'pending', id = HELD_ID): AdminOrder => ({
  id,
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
const answer = (...orders: AdminOrder[]) => ({
  success: true,
  orders,
  total_count: orders.length,
  page: 1,
  page_size: 25,
})

beforeEach(() => {
  rpc.calls.length = 0
  rpc.reply('secure_fetch_unmatched_payments', { success: true, payments: [] })
  rpc.reply('secure_reconcile', { success: true, rows: [] })
  rpc.reply('secure_fetch_refunds', { success: true, refunds: [] })
  rpc.reply('secure_fetch_refundable', {
    success: true,
    paid: true,
    stable_token: 'USDT',
    usdt: '12.50',
    trx: '0.00',
  })
})

const renderTab = () => renderWithProviders(<OrdersTab />, { admin: true })

describe('admin orders tab: an order held for review', () => {
  it('shows the hold and releases it through secure_review_held_order', async () => {
    rpc.reply('secure_fetch_orders', answer(order(true)))
    rpc.reply('secure_review_held_order', { success: true, paid: true })
    const { settled } = renderTab()
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
    // The row that asked is gone; the outcome is still said.
    await waitFor(() => expect(toastTexts()).toContain('Payment released; the order is paid'))
    await settled()
  })
})

describe('admin orders tab: list, filters, bulk delete', () => {
  it('sends the search and the status filter, and starts again at page 1', async () => {
    rpc.reply('secure_fetch_orders', answer(order(false)))
    const { settled } = renderTab()
    await screen.findAllByText('stranger@example.com')
    fireEvent.change(screen.getByLabelText('Filter by status'), { target: { value: 'paid' } })
    fireEvent.change(screen.getByLabelText('Search orders'), { target: { value: '  stranger  ' } })
    await waitFor(() =>
      expect(rpc.callsTo('secure_fetch_orders')).toContainEqual({
        p_search: 'stranger',
        p_status: 'paid',
        p_page: 1,
        p_page_size: 25,
      }),
    )
    // The export link carries what the list shows.
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
        '/api/admin/export/orders.csv?search=stranger&status=paid',
      ),
    )
    await settled()
  })

  it('Next and Previous send the page and the order at its edge, only once that page is on screen; Previous to the first page sends none', async () => {
    const ids = (page: number) => [0, 1].map((i) => `${page}0000000-0000-4000-8000-00000000000${i}`)
    const pageOf = (page: number) => ({
      ...answer(...ids(page).map((id) => order(false, 'paid', id))),
      total_count: 60,
      page,
    })
    rpc.reply('secure_fetch_orders', pageOf(1))
    const { settled } = renderTab()
    await screen.findByText('60 orders · page 1 of 3')
    const last = () => rpc.callsTo('secure_fetch_orders').at(-1)
    const page = { p_status: 'all', p_page_size: 25 }
    const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement
    // The page's own rows are on screen (not the last page's, kept while it loads).
    const shown = (page: number) => screen.findAllByText(new RegExp(`^${page}0000000`))

    await shown(1)
    rpc.reply('secure_fetch_orders', pageOf(2))
    fireEvent.click(button('Next page'))
    // Until page 2 is here, neither button moves from page 1's rows.
    expect(button('Next page').disabled).toBe(true)
    expect(button('Previous page').disabled).toBe(true)
    await screen.findByText('60 orders · page 2 of 3')
    await shown(2)
    await waitFor(() => expect(last()).toEqual({ ...page, p_page: 2, p_after_id: ids(1)[1] }))

    rpc.reply('secure_fetch_orders', pageOf(3))
    await waitFor(() => expect(button('Next page').disabled).toBe(false))
    fireEvent.click(button('Next page'))
    await screen.findByText('60 orders · page 3 of 3')
    await shown(3)
    await waitFor(() => expect(last()).toEqual({ ...page, p_page: 3, p_after_id: ids(2)[1] }))
    expect(button('Next page').disabled).toBe(true)

    rpc.reply('secure_fetch_orders', pageOf(2))
    await waitFor(() => expect(button('Previous page').disabled).toBe(false))
    fireEvent.click(button('Previous page'))
    await screen.findByText('60 orders · page 2 of 3')
    await shown(2)
    await waitFor(() => expect(last()).toEqual({ ...page, p_page: 2, p_before_id: ids(3)[0] }))

    rpc.reply('secure_fetch_orders', pageOf(1))
    await waitFor(() => expect(button('Previous page').disabled).toBe(false))
    fireEvent.click(button('Previous page'))
    await screen.findByText('60 orders · page 1 of 3')
    await shown(1)
    await waitFor(() => expect(last()).toEqual({ ...page, p_page: 1 }))
    await settled()
  })

  it('deletes the selected orders after the confirmation, one call each', async () => {
    rpc.reply('secure_fetch_orders', answer(order(false), order(false, 'cancelled', OTHER_ID)))
    const { settled } = renderTab()
    await screen.findAllByText('stranger@example.com')
    expect(screen.queryByRole('button', { name: /Delete selected/ })).toBeNull()
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all orders' }))
    fireEvent.click(screen.getByRole('button', { name: 'Delete selected (2)' }))
    rpc.reply('secure_fetch_orders', answer())
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(toastTexts()).toContain('2 order(s) deleted successfully'))
    expect(rpc.callsTo('secure_delete_order')).toEqual([{ p_order_id: HELD_ID }, { p_order_id: OTHER_ID }])
    await screen.findByText('No orders found')
    expect(screen.queryByRole('button', { name: /Delete selected/ })).toBeNull()
    await settled()
  })
})

describe('admin orders tab: a failure is told once', () => {
  it('a refused status change: the server’s words, once, and the selector back', async () => {
    rpc.reply('secure_fetch_orders', answer(order(false)))
    rpc.reply('secure_update_order_status', { success: false, error: 'The order cannot be set back' })
    const { settled } = renderTab()
    const [select] = await screen.findAllByLabelText(`Status of order ${HELD_ID}`)
    fireEvent.change(select as HTMLElement, { target: { value: 'completed' } })
    await waitFor(() => expect(toastTexts()).toEqual(['The order cannot be set back']))
    await settled()
    expect(toastTexts()).toEqual(['The order cannot be set back'])
    expect((select as HTMLSelectElement).value).toBe('pending')
  })

  it('a lost connection while deleting: the connection toast alone', async () => {
    rpc.reply('secure_fetch_orders', answer(order(false)))
    rpc.drop('secure_delete_order')
    const { settled } = renderTab()
    const [box] = await screen.findAllByRole('checkbox', { name: `Select order ${HELD_ID}` })
    fireEvent.click(box as HTMLElement)
    fireEvent.click(screen.getByRole('button', { name: 'Delete selected (1)' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }))
    await waitFor(() =>
      expect(toastTexts()).toEqual(['Connection error. Please check your internet and try again.']),
    )
    await settled()
    expect(toastTexts()).toEqual(['Connection error. Please check your internet and try again.'])
  })

  it('a delete the server fails: "Failed to delete some orders", once', async () => {
    rpc.reply('secure_fetch_orders', answer(order(false)))
    rpc.reply('secure_delete_order', { success: false, error: 'Order not found' })
    const { settled } = renderTab()
    const [box] = await screen.findAllByRole('checkbox', { name: `Select order ${HELD_ID}` })
    fireEvent.click(box as HTMLElement)
    fireEvent.click(screen.getByRole('button', { name: 'Delete selected (1)' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(toastTexts()).toEqual(['Failed to delete some orders']))
    await settled()
    expect(toastTexts()).toEqual(['Failed to delete some orders'])
  })
})

describe('admin orders tab in Russian: token amounts as the language writes them', () => {
  const payment = (id: number, token: 'USDT' | 'TRX', amount: string, order_id: string | null) => ({
    id,
    order_id,
    tx_id: `${id}`.repeat(64).slice(0, 64),
    token,
    amount,
    from_address: 'TFromAddress00000000000000000000000',
    to_address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
    block_timestamp: Date.parse('2026-11-25T10:05:00Z'),
    block_number: 1000,
    status: order_id ? 'credited' : 'unmatched',
    reason: order_id ? null : 'no_order',
    late: false,
    created_at: '2026-11-25T10:05:00.000Z',
  })

  it('lists, the order detail, unmatched payments and the reconciliation: a decimal comma and the symbol', async () => {
    const trxOrder = { ...order(false), trx_amount: '1234.56', trx_received: '20.5' }
    rpc.reply('secure_fetch_orders', answer(trxOrder))
    rpc.reply('secure_fetch_unmatched_payments', {
      success: true,
      payments: [payment(3, 'TRX', '7.000000', null)],
    })
    rpc.reply('secure_reconcile', {
      success: true,
      from: '2026-10-26',
      to: '2026-11-26',
      ties: true,
      order_mismatches: [],
      chain_errors: [],
      rows: [
        {
          address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
          token: 'USDT',
          chain: null,
          chain_count: null,
          ledger: '1234.500000',
          ledger_count: 2,
          credited: '1234.500000',
          unmatched: '0.000000',
          ties: true,
        },
      ],
    })
    rpc.reply('secure_fetch_order', {
      success: true,
      order: {
        ...trxOrder,
        window_ends_at: trxOrder.created_at,
        grace_until: trxOrder.created_at,
        cancelled_at: null,
      },
      keys: [],
      payments: [payment(1, 'USDT', '12.500000', HELD_ID), payment(2, 'TRX', '82.000001', HELD_ID)],
      mails: [],
    })
    rpc.reply('secure_fetch_order_sightings', {
      success: true,
      sightings: [
        {
          tx_id: 'c'.repeat(64),
          token: 'TRX',
          amount: 5.25,
          block_number: 999,
          status: 'seen',
          failure: null,
        },
      ],
    })
    const { settled } = renderWithProviders(<OrdersTab />, { admin: true, locale: 'ru' })

    // The list: the TRX alternative under the total (thousands grouped, a decimal comma).
    expect((await screen.findAllByText('или 1 234,56 TRX')).length).toBeGreaterThan(0)
    expect(await screen.findByText('7,00 TRX')).toBeTruthy()
    expect(await screen.findByText('1 234,50 USDT, переводов: 2')).toBeTruthy()
    expect(screen.getByText('зачтено 1 234,50 USDT')).toBeTruthy()

    const [open] = screen.getAllByRole('button', { name: HELD_ID.slice(0, 8) })
    fireEvent.click(open as HTMLElement)
    const detail = await screen.findByRole('dialog')
    await within(detail).findByText('1 234,56 TRX')
    expect(within(detail).getByText(/\(включая 20,50 TRX\)/)).toBeTruthy()
    expect(within(detail).getByText('12,50 USDT')).toBeTruthy()
    // Every decimal the chain gave is kept.
    expect(within(detail).getByText('82,000001 TRX')).toBeTruthy()
    expect(await within(detail).findByText('5,25 TRX')).toBeTruthy()
    await settled()
  })
})
