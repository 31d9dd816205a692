// A fixed-window counter per key, in memory: enough to stop one client from hammering a call that
// costs explorer requests or guesses secrets. Several processes each count on their own.

export interface WindowLimiter {
  /** Counts one hit for the key; answers how long to wait (ms) when over the limit, else 0. */
  hit(key: string, now?: number): number
  /** Answers the wait without counting a hit. */
  check(key: string, now?: number): number
  /** Gives back one hit (taken first, before an outcome was known, that turned out not to count). */
  refund(key: string, now?: number): void
}

export function createWindowLimiter(opts: {
  limit: number
  windowMs: number
  maxKeys?: number
}): WindowLimiter {
  const maxKeys = opts.maxKeys ?? 10_000
  const windows = new Map<string, { start: number; count: number }>()

  const current = (key: string, now: number) => {
    const w = windows.get(key)
    if (!w || now - w.start >= opts.windowMs) return undefined
    return w
  }

  return {
    hit(key, now = Date.now()) {
      let w = current(key, now)
      if (!w) {
        // Bounded memory: forget the oldest windows when too many clients are tracked.
        if (windows.size >= maxKeys) {
          for (const [k, v] of windows) {
            if (now - v.start >= opts.windowMs || windows.size >= maxKeys) windows.delete(k)
            if (windows.size < maxKeys / 2) break
          }
        }
        w = { start: now, count: 0 }
        windows.set(key, w)
      }
      w.count += 1
      return w.count > opts.limit ? opts.windowMs - (now - w.start) : 0
    },
    check(key, now = Date.now()) {
      const w = current(key, now)
      return w && w.count >= opts.limit ? opts.windowMs - (now - w.start) : 0
    },
    refund(key, now = Date.now()) {
      const w = current(key, now)
      if (w && w.count > 0) w.count -= 1
    },
  }
}
