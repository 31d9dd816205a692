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

/** "$49.99" — totals are always shown with 2 decimals. */
export function formatUsd(dollars: number): string {
  return `$${dollars.toFixed(2)}`
}

/** Micro-dollars (USDT base units) to the dollar number the wire carries. */
export function microsToDollars(micros: bigint): number {
  return Number(micros) / 1_000_000
}
