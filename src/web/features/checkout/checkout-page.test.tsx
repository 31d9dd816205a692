// @vitest-environment happy-dom
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { MemoryRouter, Route, Routes } from 'react-router'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import '../../test/setup-dom'
import { makeProduct } from '../../../../tests/support/product'
import { cart } from '../../lib/cart-store'
import { checkout } from '../../lib/checkout-store'
import { renderWithProviders } from '../../test/render'
import { type RpcServer, startRpcServer } from '../../test/rpc-server'
import { CheckoutPage } from './checkout-page'

const ORDER_ID = '7d7c2c4e-9b7a-4c52-9d1c-2f4b6a8e0a11'
const ADDRESS = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8'
const product = makeProduct(3, { price: 12.5 })

let rpc: RpcServer
const CREATED = {
  success: true,
  order_id: ORDER_ID,
  order_secret: 'secret-1',
  wallet_address: ADDRESS,
  window_ends_at: new Date(Date.now() + 30 * 60_000).toISOString(),
  total: 25,
}
beforeAll(async () => {
  rpc = await startRpcServer('/checkout')
  rpc.reply('fetch_products', { success: true, products: [product] })
  rpc.reply('secure_get_wallet_address', { success: true, wallet_address: ADDRESS })
  rpc.reply('secure_create_order', { ...CREATED })
})
afterAll(() => rpc.close())
beforeEach(() => {
  checkout.reset()
  cart.clear()
  cart.add(product, 2)
  rpc.calls.length = 0
})

function renderPage() {
  renderWithProviders(
    <MemoryRouter initialEntries={['/checkout']}>
      <Routes>
        <Route path="/checkout" element={<CheckoutPage />} />
        <Route path="/payment" element={<p>payment page</p>} />
        <Route path="/" element={<p>home page</p>} />
      </Routes>
    </MemoryRouter>,
  )
}

const email = () => screen.getByLabelText('Email address') as HTMLInputElement
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Continue to Payment' }))

describe('checkout form', () => {
  it('ties an invalid e-mail error to the input, focuses it and places no order', () => {
    renderPage()
    fireEvent.change(email(), { target: { value: 'not-an-email' } })
    submit()
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toBe('Please enter a valid email address')
    expect(email().getAttribute('aria-invalid')).toBe('true')
    expect(email().getAttribute('aria-describedby')).toBe(alert.id)
    expect(document.activeElement).toBe(email())
    expect(rpc.callsTo('secure_get_wallet_address')).toEqual([])
    expect(rpc.callsTo('secure_create_order')).toEqual([])
    // A fixed address clears the error as it is typed.
    fireEvent.change(email(), { target: { value: 'buyer@example.com' } })
    expect(screen.queryByRole('alert')).toBeNull()
    expect(email().getAttribute('aria-invalid')).toBeNull()
  })

  it('an empty e-mail places no order either', () => {
    renderPage()
    submit()
    expect(screen.getByRole('alert').textContent).toBe('Please enter a valid email address')
    expect(rpc.calls.filter((c) => c.name !== 'fetch_products')).toEqual([])
  })

  it('a valid e-mail asks for an address, places the order with the cart and goes to /payment', async () => {
    renderPage()
    fireEvent.change(email(), { target: { value: '  buyer@example.com ' } })
    submit()
    await screen.findByText('payment page')
    expect(rpc.callsTo('secure_get_wallet_address')).toHaveLength(1)
    const [order] = rpc.callsTo('secure_create_order')
    expect(order).toMatchObject({
      p_email: 'buyer@example.com',
      p_items: [{ product: { id: 3 }, quantity: 2 }],
      p_total: 25,
      p_wallet_address: ADDRESS,
    })
    expect(order?.p_idempotency_key).toMatch(/^[\w-]{8,}$/)
    await waitFor(() =>
      expect(checkout.get()).toMatchObject({ isActive: true, orderId: ORDER_ID, earlierConfirming: false }),
    )
  })

  it("the server's word that the browser's earlier payment is confirming goes to the payment page", async () => {
    rpc.reply('secure_create_order', {
      ...CREATED,
      order_secret: 'secret-2',
      earlier_payment_confirming: true,
    })
    renderPage()
    fireEvent.change(email(), { target: { value: 'buyer@example.com' } })
    submit()
    await screen.findByText('payment page')
    expect(checkout.get()).toMatchObject({ isActive: true, orderSecret: 'secret-2', earlierConfirming: true })
    rpc.reply('secure_create_order', { ...CREATED })
  })
})

describe('discount code', () => {
  const code = () => screen.getByRole('textbox', { name: 'Discount code' })
  const apply = () => fireEvent.click(screen.getByRole('button', { name: 'Apply' }))

  it('shows the server’s refusal at the field and keeps the full total', async () => {
    rpc.reply('secure_check_discount', { success: false, error: 'This discount code has expired' })
    renderPage()
    fireEvent.change(code(), { target: { value: 'OLD-CODE' } })
    apply()
    expect((await screen.findByRole('alert')).textContent).toBe('This discount code has expired')
    expect(code().getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByTestId('checkout-total').textContent).toBe('$25.00')
  })

  it('an accepted code lowers the total, and the order goes with the code and that total', async () => {
    rpc.reply('secure_check_discount', {
      success: true,
      code: 'Save5',
      subtotal_cents: 2500,
      discount_cents: 500,
      total_cents: 2000,
    })
    renderPage()
    fireEvent.change(code(), { target: { value: 'save5' } })
    apply()
    expect((await screen.findByTestId('checkout-discount')).textContent).toBe('−$5.00')
    expect(screen.getByTestId('checkout-total').textContent).toBe('$20.00')
    expect(rpc.callsTo('secure_check_discount')[0]).toEqual({
      p_code: 'save5',
      p_items: [{ product: { id: 3 }, quantity: 2 }],
    })
    fireEvent.change(email(), { target: { value: 'buyer@example.com' } })
    submit()
    await screen.findByText('payment page')
    expect(rpc.callsTo('secure_create_order')[0]).toMatchObject({ p_total: 20, p_discount_code: 'Save5' })
  })
})
