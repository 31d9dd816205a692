import type { TokenSymbol } from './chains'

// Token amounts as people read them, and what a pending order still lacks. Amounts are base units of
// a token at its decimals on its chain (USDT is 6 on TRON, 18 on BNB Smart Chain; TRX in sun).

/** 12500000n → "12.5" (trailing zeros trimmed, at least 2 decimals): what a wallet is typed with. */
export function formatTokenUnits(units: bigint, decimals = 6): string {
  const unit = 10n ** BigInt(decimals)
  const sign = units < 0n ? '-' : ''
  const abs = units < 0n ? -units : units
  let fraction = decimals > 0 ? (abs % unit).toString().padStart(decimals, '0').replace(/0+$/, '') : ''
  if (fraction.length < 2) fraction = fraction.padEnd(2, '0')
  return `${sign}${abs / unit}.${fraction}`
}

/** Every dollar amount a shortfall compares, at 18 decimals: the most any accepted token has. */
export const SHORTFALL_DECIMALS = 18

/** Base units at `decimals` as units at SHORTFALL_DECIMALS (exact). */
export function toShortfallUnits(units: bigint, decimals: number): bigint {
  return units * 10n ** BigInt(SHORTFALL_DECIMALS - decimals)
}

/** What a pending order paid in part has received and still lacks, in its own token. */
export interface Shortfall {
  token: TokenSymbol
  /** Received, rounded down to the token's base unit. */
  received: string
  /** Still missing, rounded up to the token's base unit: sending it always covers the order. */
  missing: string
  /** The same missing amount in the token's base units (a decimal string of an integer): what the wallet link asks for. */
  missingUnits: string
}

/**
 * The one way a shortfall is said (the payment page, the status call, the hash check's answer, the
 * admin's order) and asked for (the payment page's QR code, wallet link and amount to send): due and received at SHORTFALL_DECIMALS, shown in the token at its own decimals.
 * Null when nothing arrived yet or nothing is missing.
 */
export function shortfallOf(o: {
  token: TokenSymbol
  decimals: number
  due: bigint
  received: bigint
}): Shortfall | null {
  if (o.received <= 0n || o.received >= o.due) return null
  const step = 10n ** BigInt(SHORTFALL_DECIMALS - o.decimals)
  const missingUnits = (o.due - o.received + step - 1n) / step
  return {
    token: o.token,
    received: formatTokenUnits(o.received / step, o.decimals),
    missing: formatTokenUnits(missingUnits, o.decimals),
    missingUnits: missingUnits.toString(),
  }
}
