// @vitest-environment happy-dom
import { act, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import '../test/setup-dom'
import { makeProduct } from '../../../tests/support/product'
import { Countdown } from '../features/payment/components/countdown'
import { cart } from '../lib/cart-store'
import { checkout, formatCountdown, inactiveCheckout, msRemaining } from '../lib/checkout-store'
import { storageKeys } from '../lib/storage'
import { renderWithProviders } from '../test/render'
import { applyReloadRules } from './checkout-watch'

const product = makeProduct(1)

const order = (windowEndsAt: number) => ({
  email: 'buyer@example.com',
  orderId: '7d7c2c4e-9b7a-4c52-9d1c-2f4b6a8e0a11',
  orderSecret: 'test-secret',
  walletAddress: 'TXYZ',
  windowEndsAt,
  total: 10,
  trxAmount: null,
  trxRate: null,
})

const at = (path: string) => window.history.replaceState(null, '', path)
const path = () => window.location.pathname

describe('reload rules', () => {
  beforeEach(() => {
    checkout.reset()
    cart.clear()
    at('/')
  })

  it('an active checkout sends any storefront page to /payment, but not the admin or a dashboard', () => {
    cart.add(product)
    checkout.start(order(Date.now() + 60_000))
    at('/products')
    applyReloadRules()
    expect(path()).toBe('/payment')
    for (const p of ['/admin', '/admin/products', '/dashboard/abc']) {
      at(p)
      applyReloadRules()
      expect(path()).toBe(p)
    }
  })

  it('a window that ran out clears cart and checkout, and /payment goes to /cart', () => {
    cart.add(product)
    checkout.start(order(Date.now() - 1))
    at('/payment')
    applyReloadRules()
    expect(path()).toBe('/cart')
    expect(cart.getItems()).toEqual([])
    expect(checkout.get()).toEqual(inactiveCheckout)
    expect(window.localStorage.getItem(storageKeys.checkout)).toBeNull()
  })

  it('/payment without an active checkout, an address or a cart goes to /cart', () => {
    at('/payment')
    applyReloadRules()
    expect(path()).toBe('/cart')

    checkout.start(order(Date.now() + 60_000)) // an empty cart
    at('/payment')
    applyReloadRules()
    expect(path()).toBe('/cart')
    expect(checkout.get().isActive).toBe(false)
  })

  it('an active checkout with its cart stays on /payment after a reload', () => {
    cart.add(product)
    checkout.start(order(Date.now() + 60_000))
    at('/payment')
    // What a reload sees: the stores read back from storage.
    cart.reload()
    checkout.reload()
    applyReloadRules()
    expect(path()).toBe('/payment')
    expect(checkout.get().orderId).toBe(order(0).orderId)
  })
})

describe('countdown', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] }))
  afterEach(() => vi.useRealTimers())

  it('shows m:ss from the server expiry and ticks every second', () => {
    const now = new Date('2026-01-01T12:00:00Z').getTime()
    vi.setSystemTime(now)
    renderWithProviders(
      <Countdown
        state={{ ...inactiveCheckout, isActive: true, startTime: now, windowEndsAt: now + 30 * 60_000 }}
      />,
    )
    expect(screen.getByRole('timer').textContent).toBe('30:00')
    act(() => vi.advanceTimersByTime(61_000))
    expect(screen.getByRole('timer').textContent).toBe('28:59')
    act(() => vi.advanceTimersByTime(30 * 60_000))
    expect(screen.getByRole('timer').textContent).toBe('0:00')
  })

  it('reads the window end a checkout stored before the upgrade, under its old name expiresAt', () => {
    const now = new Date('2026-01-01T12:00:00Z').getTime()
    vi.setSystemTime(now)
    const { windowEndsAt, ...rest } = order(now + 12 * 60_000)
    window.localStorage.setItem(
      storageKeys.checkout,
      JSON.stringify({ ...rest, expiresAt: windowEndsAt, startTime: now - 10 * 60_000, isActive: true }),
    )
    checkout.reload()
    expect(checkout.get().windowEndsAt).toBe(windowEndsAt)
    expect(msRemaining(checkout.get(), now)).toBe(12 * 60_000)
    checkout.reset()
  })

  it('formats the window', () => {
    expect(formatCountdown(0)).toBe('0:00')
    expect(formatCountdown(999)).toBe('0:01')
    expect(formatCountdown(65_000)).toBe('1:05')
    expect(formatCountdown(30 * 60_000)).toBe('30:00')
  })
})
