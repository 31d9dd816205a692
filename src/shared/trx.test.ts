import { describe, expect, it } from 'vitest'
import { formatRateE8, formatSun, parseRateE8, sunToUsdMicros, usdCentsToSun } from './trx'

describe('TRX money', () => {
  it('parses rates exactly and refuses junk', () => {
    expect(parseRateE8('0.2871')).toBe(28_710_000n)
    expect(parseRateE8('0.28710000')).toBe(28_710_000n)
    expect(parseRateE8('1')).toBe(100_000_000n)
    for (const bad of ['', '-0.1', '0', '1e-3', 'abc', '0.1.2', 'NaN']) expect(parseRateE8(bad)).toBeNull()
    expect(formatRateE8(28_710_000n)).toBe('0.2871')
  })

  it('rounds the TRX amount up to 0.01 TRX, so rounding never underpays', () => {
    // $99.98 at $0.25 = 399.92 TRX exactly.
    expect(usdCentsToSun(9_998, 25_000_000n)).toBe(399_920_000n)
    // $49.99 at $0.2871 = 174.1205... TRX → 174.13
    expect(usdCentsToSun(4_999, 28_710_000n)).toBe(174_130_000n)
    expect(formatSun(174_130_000n)).toBe('174.13')
    expect(formatSun(1_000_000n)).toBe('1.00')
    expect(formatSun(1_234_567n)).toBe('1.234567')
    // Worth at least the total at the locked rate.
    expect(sunToUsdMicros(174_130_000n, 28_710_000n)).toBeGreaterThanOrEqual(49_990_000n)
  })
})
