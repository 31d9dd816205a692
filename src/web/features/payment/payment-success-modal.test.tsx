// @vitest-environment happy-dom
import { fireEvent, screen } from '@testing-library/react'
import { MemoryRouter, Route, Routes } from 'react-router'
import { beforeEach, describe, expect, it } from 'vitest'
import '../../test/setup-dom'
import { paymentSuccess } from '../../lib/checkout-store'
import { renderWithProviders } from '../../test/render'
import { PaymentSuccessModal } from './payment-success-modal'

// Payment Successful is shown from the flag the payment page stores, on whichever page the buyer is
// next: it survives the redirect to / and a reload. A page an e-mail's link opens later in the same
// browser (a refund, the orders) is about something else, and the dialog must not sit over it.

function renderAt(path: string) {
  let clicks = 0
  renderWithProviders(
    <MemoryRouter initialEntries={[path]}>
      <PaymentSuccessModal />
      <Routes>
        <Route
          path="*"
          element={
            <button type="button" onClick={() => clicks++}>
              Continue
            </button>
          }
        />
      </Routes>
    </MemoryRouter>,
  )
  return { clicks: () => clicks }
}

describe('Payment Successful', () => {
  beforeEach(() => paymentSuccess.record(20, 'dashboard-token'))

  it('is shown on the shop’s pages after a payment', async () => {
    renderAt('/')
    expect(await screen.findByRole('dialog')).toBeTruthy()
    expect(screen.getByRole('heading', { name: 'Payment Successful', level: 2 })).toBeTruthy()
  })

  it.each(['/refund/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', '/orders/some-link-token'])(
    'is not over %s, whose Continue works',
    (path) => {
      const page = renderAt(path)
      expect(screen.queryByRole('dialog')).toBeNull()
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
      expect(page.clicks()).toBe(1)
      // The flag stays: the buyer still meets the dialog back on the shop's pages.
      expect(paymentSuccess.get()).not.toBeNull()
    },
  )
})
