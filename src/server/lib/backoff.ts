// The one doubling back-off: after the n-th failure in a row the next try waits baseMs · 2^(n−1),
// never more than maxMs. The outbox (mail, webhooks, Telegram) and the explorer client pause by it;
// a caller that is told how long to wait (a 429's Retry-After) takes the larger of the two itself.

export interface Backoff {
  /** The wait after the first failure. */
  baseMs: number
  /** The wait never grows past this. */
  maxMs: number
}

/** The wait after `failures` failures in a row (0 or 1: baseMs). */
export function backoffDelay(failures: number, backoff: Backoff): number {
  // The exponent is capped so that a long run of failures cannot overflow to Infinity.
  const doublings = Math.min(Math.max(Math.floor(failures) - 1, 0), 30)
  return Math.min(backoff.maxMs, backoff.baseMs * 2 ** doublings)
}
