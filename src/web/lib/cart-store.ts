import type { Product } from '../../shared/product'
import { createLocalStore } from './local-store'
import { readJson, storageKeys, writeJson } from './storage'

export interface CartItem {
  product: Product
  quantity: number
}

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

const store = createLocalStore<CartItem[]>({
  keys: [storageKeys.cart],
  load,
  save: (lines) => writeJson(storageKeys.cart, lines),
  initial: [],
})
const commit = store.set

export const MAX_QUANTITY = 100

export const cart = {
  getItems: () => store.get(),
  add(product: Product, quantity = 1): void {
    const existing = store.get().find((l) => l.product.id === product.id)
    if (existing) {
      cart.setQuantity(product.id, existing.quantity + quantity)
    } else {
      commit([...store.get(), { product, quantity: Math.min(quantity, MAX_QUANTITY) }])
    }
  },
  /** A quantity of 0 or less removes the line. */
  setQuantity(productId: number, quantity: number): void {
    if (quantity <= 0) {
      cart.remove(productId)
      return
    }
    commit(
      store
        .get()
        .map((l) => (l.product.id === productId ? { ...l, quantity: Math.min(quantity, MAX_QUANTITY) } : l)),
    )
  },
  remove(productId: number): void {
    commit(store.get().filter((l) => l.product.id !== productId))
  },
  clear(): void {
    commit([])
  },
  replace(next: CartItem[]): void {
    commit(next)
  },
  subscribe: store.subscribe,
  reload: store.reload,
}

export function useCartItems(): CartItem[] {
  return store.use()
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
