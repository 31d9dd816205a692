import { useSyncExternalStore } from 'react'
import type { Product } from '../../shared/product'
import { readJson, storageKeys, writeJson } from './storage'

export interface CartItem {
  product: Product
  quantity: number
}

type Listener = () => void
const listeners = new Set<Listener>()
let items: CartItem[] = load()

function load(): CartItem[] {
  const raw = readJson<unknown>(storageKeys.cart, [])
  if (!Array.isArray(raw)) return []
  return raw.filter(
    (line): line is CartItem =>
      typeof line === 'object' &&
      line !== null &&
      typeof line.product?.id === 'number' &&
      Number.isInteger(line.quantity) &&
      line.quantity > 0,
  )
}

function commit(next: CartItem[]): void {
  items = next
  writeJson(storageKeys.cart, items)
  for (const l of listeners) l()
}

if (typeof window !== 'undefined') {
  // Another tab changed the cart.
  window.addEventListener('storage', (event) => {
    if (event.key !== storageKeys.cart) return
    items = load()
    for (const l of listeners) l()
  })
}

export const MAX_QUANTITY = 100

export const cart = {
  getItems: () => items,
  add(product: Product, quantity = 1): void {
    const existing = items.find((l) => l.product.id === product.id)
    if (existing) {
      cart.setQuantity(product.id, existing.quantity + quantity)
    } else {
      commit([...items, { product, quantity: Math.min(quantity, MAX_QUANTITY) }])
    }
  },
  /** A quantity of 0 or less removes the line. */
  setQuantity(productId: number, quantity: number): void {
    if (quantity <= 0) {
      cart.remove(productId)
      return
    }
    commit(
      items.map((l) =>
        l.product.id === productId ? { ...l, quantity: Math.min(quantity, MAX_QUANTITY) } : l,
      ),
    )
  },
  remove(productId: number): void {
    commit(items.filter((l) => l.product.id !== productId))
  },
  clear(): void {
    commit([])
  },
  replace(next: CartItem[]): void {
    commit(next)
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
}

export function useCartItems(): CartItem[] {
  return useSyncExternalStore(cart.subscribe, cart.getItems, cart.getItems)
}

/** Cart total in integer cents, so repeated additions never drift. */
export function cartTotalCents(lines: readonly CartItem[]): number {
  return lines.reduce((sum, l) => sum + Math.round(l.product.price * 100) * l.quantity, 0)
}

/**
 * Keeps stored lines in step with the catalogue: new prices and names, and lines whose product is
 * gone or became free dropped. Without it a price change would fail checkout with "Invalid order total".
 */
export function syncCartWithCatalog(products: readonly Product[]): void {
  const byId = new Map(products.map((p) => [p.id, p]))
  const current = cart.getItems()
  const next = current.flatMap((line) => {
    const fresh = byId.get(line.product.id)
    if (!fresh || fresh.is_free || fresh.price <= 0) return []
    return [{ product: fresh, quantity: line.quantity }]
  })
  const changed =
    next.length !== current.length ||
    next.some((line, i) => JSON.stringify(line.product) !== JSON.stringify(current[i]?.product))
  if (changed) cart.replace(next)
}
