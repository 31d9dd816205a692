import { format } from 'date-fns'

/** 'MMM d, yyyy HH:mm', or 'Invalid date' when the value cannot be formatted. */
export function formatOrderDate(value: unknown): string {
  try {
    const date = new Date(value as string)
    if (Number.isNaN(date.getTime())) return 'Invalid date'
    return format(date, 'MMM d, yyyy HH:mm')
  } catch {
    return 'Invalid date'
  }
}

/** "Name × 2, Other × 1" from the items array or its JSON text, or 'Invalid items'. */
export function formatOrderItems(value: unknown): string {
  try {
    const items = typeof value === 'string' ? JSON.parse(value) : value
    if (!Array.isArray(items)) return 'Invalid items'
    return items
      .map((item: { product: { name: string }; quantity: number }) => {
        if (typeof item.product.name !== 'string') throw new Error('no name')
        return `${item.product.name} × ${item.quantity}`
      })
      .join(', ')
  } catch {
    return 'Invalid items'
  }
}
