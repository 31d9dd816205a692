// Money on the server is integer cents; the wire keeps dollar numbers, as every client expects.

/** Dollars (as the browser sends them, e.g. 49.99) to integer cents; null when not a whole number of cents. */
export function dollarsToCents(dollars: number): number | null {
  if (!Number.isFinite(dollars)) return null
  const cents = Math.round(dollars * 100)
  // Reject values such as 1.005 that are not a whole number of cents.
  if (Math.abs(cents - dollars * 100) > 1e-6) return null
  return cents
}

/** Integer cents to the dollar number the answers carry. */
export function centsToDollars(cents: number): number {
  return cents / 100
}

/** Integer cents as a decimal string with 2 decimals ("49.99"), by integer arithmetic only. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(Math.trunc(cents))
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/** "$49.99" — totals are always shown with 2 decimals. */
export function formatUsd(dollars: number): string {
  return `$${dollars.toFixed(2)}`
}

const MICROS_PER_CENT = 10_000n

/**
 * Micro-dollars (USDT base units; TRX valued at the locked rate) to whole cents, rounded down:
 * the one rule for an amount received, so the buyer and the admin always see the same figure and
 * never more than arrived.
 */
export function microsToCents(micros: bigint): number {
  const cents = micros / MICROS_PER_CENT - (micros < 0n && micros % MICROS_PER_CENT !== 0n ? 1n : 0n)
  return Number(cents)
}

/** Micro-dollars to the dollar number the wire carries, by the rule of microsToCents. */
export function microsToDollars(micros: bigint): number {
  return centsToDollars(microsToCents(micros))
}
