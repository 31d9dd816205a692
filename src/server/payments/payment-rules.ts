import type { FulfilContext } from '../delivery/fulfil-order'

// The rules every path to "paid" shares: how much shortfall is accepted, how long an address rests
// after its order ends, and where the dashboard link points.

export interface PaymentRules {
  /** PAYMENT_TOLERANCE in micro-dollars: the largest shortfall accepted on any order. */
  toleranceMicros: bigint
  /** PAYMENT_TOLERANCE_PERCENT in basis points (10 % = 1000): the shortfall is also at most this share. */
  tolerancePercentBp: bigint
  /** An ended order's address rests this long before another order may take it. */
  cooldownMs: number
  /** The payment window and grace, for an order the admin sets back to pending. */
  windowMs: number
  graceMs: number
  fulfil: FulfilContext
}

/** PAYMENT_TOLERANCE (dollars, as configured) to micro-dollars without binary floating point. */
export function toleranceToMicros(tolerance: number): bigint {
  return decimalToScaled(tolerance, 6)
}

/** PAYMENT_TOLERANCE_PERCENT to basis points (10 → 1000n, 2.5 → 250n). */
export function percentToBasisPoints(percent: number): bigint {
  return decimalToScaled(percent, 2)
}

function decimalToScaled(value: number, decimals: number): bigint {
  const text = String(value)
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text)
  if (!match) throw new TypeError(`expected a non-negative decimal, got ${text}`)
  const fraction = (match[2] ?? '').slice(0, decimals).padEnd(decimals, '0')
  return BigInt(match[1] ?? '0') * 10n ** BigInt(decimals) + BigInt(fraction)
}

/**
 * The shortfall accepted on an order owing `dueMicros`: the smaller of the absolute tolerance and
 * the percentage of the total, so a dust transfer can never pay a cheap order.
 */
export function acceptedShortfallMicros(
  dueMicros: bigint,
  rules: Pick<PaymentRules, 'toleranceMicros' | 'tolerancePercentBp'>,
): bigint {
  const share = (dueMicros * rules.tolerancePercentBp) / 10_000n
  return share < rules.toleranceMicros ? share : rules.toleranceMicros
}
