// @vitest-environment happy-dom
import { cleanup, waitFor } from '@testing-library/react'
import { MemoryRouter, Route, Routes } from 'react-router'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import '../../test/setup-dom'
import { makeProduct } from '../../../../tests/support/product'
import { cart } from '../../lib/cart-store'
import { checkout } from '../../lib/checkout-store'
import { pendingStatusAnswer } from '../../test/order-status-answer'
import { renderWithProviders } from '../../test/render'
import { type RpcServer, startRpcServer } from '../../test/rpc-server'
import { PaymentPage } from './payment-page'

// The payment page's long poll keeps a held status call at the shop at all times: after an answer
// that brings news (a version other than the one it sent) it asks again at once, so a second change
// right after the first reaches the page as the shop records it, not at the next 3 s poll. An answer
// without news from a shop that did not hold the call keeps the 3 s pace (no tight loop). The shop
// is stood in by a real local HTTP server that answers at once (it never holds a call).

const ORDER_ID = '7d7c2c4e-9b7a-4c52-9d1c-2f4b6a8e0a11'
let rpc: RpcServer

const status = (version: string) => pendingStatusAnswer(ORDER_ID, { version })

beforeAll(async () => {
  rpc = await startRpcServer('/payment')
})
afterAll(async () => {
  cleanup()
  await rpc.close()
})

describe('the payment page and news from the shop', () => {
  it('asks again at once after news, and at the 3 s pace after an answer without news', async () => {
    cart.clear()
    cart.add(makeProduct(1, { price: 20 }))
    checkout.start({
      email: 'buyer@example.com',
      orderId: ORDER_ID,
      orderSecret: 'test-secret',
      walletAddress: 'TTestAddressForThePaymentPage0000',
      windowEndsAt: Date.now() + 30 * 60_000,
      total: 20,
      trxAmount: null,
      trxRate: null,
    })
    rpc.reply('secure_get_order_status', status('a1'))
    renderWithProviders(
      <MemoryRouter initialEntries={['/payment']}>
        <Routes>
          <Route path="/payment" element={<PaymentPage />} />
        </Routes>
      </MemoryRouter>,
    )
    const calls = () => rpc.calls.filter((c) => c.name === 'secure_get_order_status')
    const known = (i: number) => calls()[i]?.body.p_known_version
    const gap = (i: number) => (calls()[i]?.at as number) - (calls()[i - 1]?.at as number)

    // The first answer is news (the page knew nothing): the held call with its version follows at once.
    await waitFor(() => expect(calls().length).toBeGreaterThanOrEqual(2), { timeout: 2_000 })
    expect([known(0), known(1)]).toEqual([undefined, 'a1'])
    expect(gap(1)).toBeLessThan(1_000)
    // That call came back at once with the same version (this stand-in never holds): the 3 s pace.
    await waitFor(() => expect(calls().length).toBeGreaterThanOrEqual(3), { timeout: 5_000 })
    expect(gap(2)).toBeGreaterThanOrEqual(2_500)
    // The shop records a change: the call that brings it is followed at once by the next held call.
    rpc.reply('secure_get_order_status', status('b2'))
    await waitFor(() => expect(calls().some((c) => c.body.p_known_version === 'b2')).toBe(true), {
      timeout: 5_000,
    })
    const first = calls().findIndex((c) => c.body.p_known_version === 'b2')
    expect(known(first - 1)).toBe('a1')
    expect(gap(first)).toBeLessThan(1_000)
  }, 20_000)
})
