// @vitest-environment happy-dom
import { act, screen } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { beforeEach, describe, expect, it } from 'vitest'
import '../test/setup-dom'
import { makeProduct } from '../../../tests/support/product'
import type { Product } from '../../shared/product'
import { defaultSiteContent } from '../../shared/site-content-defaults'
import { Header } from '../components/layout/header'
import { renderWithProviders } from '../test/render'
import { siteContentKeys } from './api/get-site-content'
import { cart, cartTotalCents, MAX_QUANTITY, syncCartWithCatalog } from './cart-store'
import { createQueryClient } from './query-client'
import { storageKeys } from './storage'

const product = (id: number, price: number, extra: Partial<Product> = {}): Product =>
  makeProduct(id, { price, ...extra })

const stored = () => JSON.parse(window.localStorage.getItem(storageKeys.cart) ?? 'null')

describe('cart', () => {
  beforeEach(() => cart.clear())

  it('adds, merges lines of one product, caps the quantity and persists under cart-items', () => {
    cart.add(product(1, 49.99))
    cart.add(product(1, 49.99), 2)
    cart.add(product(2, 10))
    expect(cart.getItems().map((l) => [l.product.id, l.quantity])).toEqual([
      [1, 3],
      [2, 1],
    ])
    cart.setQuantity(2, 1000)
    expect(cart.getItems()[1]?.quantity).toBe(MAX_QUANTITY)
    expect(stored()).toHaveLength(2)
  })

  it('removes a line whose quantity drops to 0', () => {
    cart.add(product(1, 5))
    cart.setQuantity(1, 0)
    expect(cart.getItems()).toEqual([])
    expect(stored()).toEqual([])
  })

  it('adds up in integer cents: 3 × 0.1 + 0.2 is 50 cents', () => {
    cart.add(product(1, 0.1), 3)
    cart.add(product(2, 0.2))
    expect(cartTotalCents(cart.getItems())).toBe(50)
  })

  it('follows the catalogue: new prices kept, gone or now-free products dropped', () => {
    cart.add(product(1, 10))
    cart.add(product(2, 20))
    cart.add(product(3, 30))
    syncCartWithCatalog([product(1, 12), product(3, 0, { is_free: true })])
    expect(cart.getItems().map((l) => [l.product.id, l.product.price])).toEqual([[1, 12]])
  })

  it('ignores malformed stored lines', () => {
    window.localStorage.setItem(
      storageKeys.cart,
      JSON.stringify([
        { product: { id: 1 }, quantity: 2 },
        { product: {}, quantity: 1 },
        { quantity: -1 },
        'x',
      ]),
    )
    cart.reload()
    expect(cart.getItems()).toHaveLength(1)
  })

  it("the header's badge counts the lines and follows changes", () => {
    const client = createQueryClient()
    client.setQueryData(siteContentKeys.all, defaultSiteContent)
    renderWithProviders(
      <MemoryRouter>
        <Header />
      </MemoryRouter>,
      { client },
    )
    expect(screen.getByRole('link', { name: 'Cart, 0 items' })).toBeTruthy()
    expect(screen.queryByTestId('cart-badge')).toBeNull()
    act(() => cart.add(product(1, 5), 4))
    expect(screen.getByTestId('cart-badge').textContent).toBe('1')
    act(() => cart.add(product(2, 5)))
    expect(screen.getByRole('link', { name: 'Cart, 2 items' })).toBeTruthy()
  })
})
