// The localStorage keys, in one place (existing buyers' carts use these names).
export const storageKeys = {
  cart: 'cart-items',
  checkout: 'checkout-state',
  adminAuth: 'admin-auth',
  paymentSuccess: 'payment_success',
  paymentAmount: 'payment_amount',
  dashboardUrl: 'dashboard_url',
} as const

export function readJson<T>(key: string, fallback: T): T {
  try {
    const raw = window.localStorage.getItem(key)
    return raw === null ? fallback : (JSON.parse(raw) as T)
  } catch {
    return fallback
  }
}

export function writeJson(key: string, value: unknown): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value))
  } catch {
    // Private mode or a full quota: the page keeps working from memory.
  }
}

export function removeKey(key: string): void {
  try {
    window.localStorage.removeItem(key)
  } catch {}
}
