import { describe, expect, it } from 'vitest'
import { formatTokenUnits, shortfallOf, toShortfallUnits } from './token-amount'

describe('token amounts and shortfalls', () => {
  it('formats base units digit for digit, at least 2 decimals', () => {
    expect(formatTokenUnits(25_010_000_000_000_000_000n, 18)).toBe('25.01')
    expect(formatTokenUnits(1n, 18)).toBe('0.000000000000000001')
    expect(formatTokenUnits(123_456n, 6)).toBe('0.123456')
    expect(formatTokenUnits(2500n, 0)).toBe('2500.00')
    expect(formatTokenUnits(-1_500_000n)).toBe('-1.50')
  })

  it('rounds what is missing up to the token’s base unit and what arrived down', () => {
    const due = toShortfallUnits(4999n, 2)
    // An 18-decimal transfer one base unit short on a 6-decimal order: one micro missing, never none.
    expect(shortfallOf({ token: 'USDC', decimals: 6, due, received: due - 1n })).toEqual({
      token: 'USDC',
      received: '49.989999',
      missing: '0.000001',
      missingUnits: '1',
    })
    expect(shortfallOf({ token: 'USDT', decimals: 18, due, received: due - 1n })).toEqual({
      token: 'USDT',
      received: '49.989999999999999999',
      missing: '0.000000000000000001',
      missingUnits: '1',
    })
    expect(shortfallOf({ token: 'USDT', decimals: 6, due, received: 0n })).toBeNull()
    expect(shortfallOf({ token: 'USDT', decimals: 6, due, received: due })).toBeNull()
  })
})
