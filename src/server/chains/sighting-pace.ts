import type { RequestBudgetView } from './provider-failover'

// How the sighting watcher paces itself against the chain's one request budget (decision 024):
// sightings give way, the follower never does.

const DAY_MS = 86_400_000
/**
 * Requests a look costs on average: the head blocks, now and then a receipt call or an early look
 * (measured 1.01–1.05 a block, decision 024; was 1.2 before decision 045).
 */
export const LOOK_COST = 1.05
/**
 * The follower's requests a block until ten minutes are counted: 1.17 looks, a receipt call only for
 * a block paying us by contract, the head every five minutes (decision 045; 2.2 before, when every
 * block's receipts were read).
 */
export const FOLLOWER_PER_BLOCK = 1.2

/**
 * How often sightings may look, from the day's budget: what is left after the follower's projected
 * requests for the rest of the day (measured, or the default estimate while little is counted),
 * spread evenly over the rest of the day. Exported for tests and the decision's figures.
 */
export function sightingPace(
  budget: RequestBudgetView | undefined,
  opts: { now: number; blockIntervalMs: number; followerPerSecond: number; reserveShare: number },
): { mode: 'full' | 'slowed' | 'paused'; lookEveryMs: number } {
  const full = { mode: 'full' as const, lookEveryMs: opts.blockIntervalMs }
  if (!budget || budget.perDay === null) return full
  const dayEnd = (Math.floor(opts.now / DAY_MS) + 1) * DAY_MS
  const secondsLeft = Math.max(1, (dayEnd - opts.now) / 1000)
  const counted = Math.max(1, (opts.now - budget.countingSince) / 1000)
  const others = Math.max(0, budget.usedToday - budget.sightingsToday)
  // Ten minutes of counting before the measured rate replaces the estimate (a catch-up burst or a
  // quiet start would mislead either way); never below the estimate.
  const measured = counted >= 600 ? others / counted : 0
  const followerRate = Math.max(measured, opts.followerPerSecond)
  const reserve = (others + followerRate * secondsLeft) * (1 + opts.reserveShare)
  const left = budget.perDay - reserve - budget.sightingsToday
  if (left < 1) return { mode: 'paused', lookEveryMs: 60_000 }
  const lookEveryMs = Math.ceil(((LOOK_COST * secondsLeft) / left) * 1000)
  if (lookEveryMs <= opts.blockIntervalMs) return full
  return { mode: 'slowed', lookEveryMs: Math.min(lookEveryMs, 10 * 60_000) }
}
