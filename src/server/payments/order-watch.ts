// The payment page's long poll: a status call that already knows the current answer waits here
// until something about its order may have changed (a sighting, a payment, the follower's commit)
// or a few seconds pass. In-process only: with several processes, the waiter's own re-check every
// few seconds (payments.routes.ts) covers news another process wrote.

export interface OrderWatch {
  /** Wakes the waiters of these orders ('*': every waiter). */
  notify(orderIds: Iterable<string> | '*'): void
  /** Resolves when the order is notified or after ms; never rejects. */
  wait(orderId: string, ms: number): Promise<void>
  /** Waiting calls now (for tests and metrics). */
  waiting(): number
}

export function createOrderWatch(): OrderWatch {
  const waiters = new Map<string, Set<() => void>>()
  let count = 0
  const wake = (orderId: string) => {
    for (const done of [...(waiters.get(orderId) ?? [])]) done()
  }
  return {
    notify(orderIds) {
      if (orderIds === '*') {
        for (const id of [...waiters.keys()]) wake(id)
        return
      }
      for (const id of orderIds) wake(id)
    },
    wait(orderId, ms) {
      return new Promise<void>((resolve) => {
        const set = waiters.get(orderId) ?? new Set()
        waiters.set(orderId, set)
        count += 1
        const done = () => {
          clearTimeout(timer)
          set.delete(done)
          if (set.size === 0) waiters.delete(orderId)
          count -= 1
          resolve()
        }
        const timer = setTimeout(done, ms)
        set.add(done)
      })
    },
    waiting: () => count,
  }
}
