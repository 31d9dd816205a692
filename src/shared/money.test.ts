import { describe, expect, it } from 'vitest'
import { centsToDollars, dollarsToCents, microsToCents, microsToDollars } from './money'

describe('money', () => {
  it('an amount received is shown in whole cents, rounded down, by one rule', () => {
    expect(microsToCents(12_345_678n)).toBe(1234)
    expect(microsToDollars(12_345_678n)).toBe(12.34)
    expect(microsToDollars(9_999n)).toBe(0)
    expect(microsToDollars(49_990_000n)).toBe(49.99)
    // TRX valued at the locked rate can land between cents: never shown as more than arrived.
    expect(microsToDollars(49_989_999n)).toBe(49.98)
  })

  it('dollars and cents convert exactly for every whole number of cents', () => {
    for (const cents of [1, 5, 10, 99, 4999, 100_000_000, 22_000_000_00]) {
      expect(dollarsToCents(centsToDollars(cents))).toBe(cents)
    }
    expect(dollarsToCents(1.005)).toBeNull()
  })
})
