// Checkout rules and messages without the schema library, so the storefront's first load stays
// small; checkout.ts builds the schemas from them.

export const MAX_ITEM_QUANTITY = 100
/** More distinct lines than any real cart holds; bounds the work one request can cause. */
export const MAX_ORDER_LINES = 100
export const MAX_EMAIL_LENGTH = 254

export const messages = {
  invalidTotal: 'Invalid order total',
  unavailable: 'Payment system is temporarily unavailable. Please try again later.',
  createFailed: 'Failed to create order. Please try again.',
  expired: 'Payment window expired. Please try again.',
} as const

// Practical e-mail shape: one @, no spaces, a dot in the domain, no empty labels.
const EMAIL_PATTERN = /^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:]+\.[^\s@"<>()[\]\\,;:.]{2,}$/

export function isValidEmail(value: string): boolean {
  if (value.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(value)) return false
  const domain = value.slice(value.lastIndexOf('@') + 1)
  return !domain.split('.').some((label) => label === '')
}
