// TRX amounts: 1 TRX = 1,000,000 sun. Rates are USD per TRX scaled by 10^8 (Binance's precision),
// all in BigInt so no binary float ever touches money.

export const SUN_PER_TRX = 1_000_000n
export const RATE_SCALE = 100_000_000n

/** "0.2871" → 28710000n (USD per TRX × 10^8); null when not a plain positive decimal. */
export function parseRateE8(text: string): bigint | null {
  const match = /^(\d{1,6})(?:\.(\d{1,18}))?$/.exec(text.trim())
  if (!match) return null
  const whole = BigInt(match[1] as string)
  const fraction = BigInt(`${match[2] ?? ''}00000000`.slice(0, 8))
  const rate = whole * RATE_SCALE + fraction
  return rate > 0n ? rate : null
}

/** 28710000n → "0.2871". */
export function formatRateE8(rate: bigint): string {
  const whole = rate / RATE_SCALE
  const fraction = (rate % RATE_SCALE).toString().padStart(8, '0').replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : `${whole}`
}

/**
 * TRX (in sun) to send for a USD total at a rate, rounded **up** to 0.01 TRX so the buyer never
 * underpays by rounding and the amount is easy to type.
 */
export function usdCentsToSun(cents: number, rateE8: bigint): bigint {
  // TRX = (cents / 100) / (rate / 10^8)  →  sun = cents × 10^6 × 10^8 / (100 × rate)
  const numerator = BigInt(cents) * SUN_PER_TRX * RATE_SCALE
  const denominator = 100n * rateE8
  const sun = (numerator + denominator - 1n) / denominator
  const step = 10_000n // 0.01 TRX
  return ((sun + step - 1n) / step) * step
}

/** USD value, in micro-dollars (6 decimals, like USDT base units), of an amount of sun at a rate. */
export function sunToUsdMicros(sun: bigint, rateE8: bigint): bigint {
  // USD = sun / 10^6 × rate / 10^8; micro-USD = USD × 10^6 = sun × rate / 10^8
  return (sun * rateE8) / RATE_SCALE
}

/** 348320000n → "348.32" (TRX, trailing zeros trimmed, at least 2 decimals). */
export function formatSun(sun: bigint): string {
  const whole = sun / SUN_PER_TRX
  let fraction = (sun % SUN_PER_TRX).toString().padStart(6, '0').replace(/0+$/, '')
  if (fraction.length < 2) fraction = fraction.padEnd(2, '0')
  return `${whole}.${fraction}`
}

/**
 * What an order has received, in micro-dollars: USDT counts 1:1 (6 decimals), TRX at the rate
 * locked into the order (decision 004); TRX counts nothing for an order placed without a rate.
 */
export function receivedUsdMicros(usdtUnits: bigint, trxSun: bigint, rateE8: bigint | null): bigint {
  return usdtUnits + (rateE8 === null ? 0n : sunToUsdMicros(trxSun, rateE8))
}
