import { describe, expect, it } from 'vitest'
import { formatOrderDate, formatOrderItems } from './orders-format'

describe('order formatting', () => {
  it("dates as 'MMM d, yyyy HH:mm', or 'Invalid date'", () => {
    expect(formatOrderDate(new Date(2026, 10, 3, 9, 5).toISOString())).toBe('Nov 3, 2026 09:05')
    expect(formatOrderDate('not a date')).toBe('Invalid date')
    expect(formatOrderDate(undefined)).toBe('Invalid date')
  })

  it("items from an array or its JSON text, or 'Invalid items'", () => {
    const items = [
      { product: { name: 'A' }, quantity: 2 },
      { product: { name: 'B' }, quantity: 1 },
    ]
    expect(formatOrderItems(items)).toBe('A × 2, B × 1')
    expect(formatOrderItems(JSON.stringify(items))).toBe('A × 2, B × 1')
    expect(formatOrderItems('{broken')).toBe('Invalid items')
    expect(formatOrderItems([{ quantity: 1 }])).toBe('Invalid items')
    expect(formatOrderItems({})).toBe('Invalid items')
  })
})
