// The payment page's news, in process: whatever may have changed an order (a sighting, a payment,
// the follower's commit) notifies here. The page's stream (status-stream.ts) fans it out to the open
// pages; a long-polling status call waits here until its order is named or a few seconds pass. With
// several processes, the stream's and the waiter's own re-checks every few seconds cover news
// another process wrote.

export interface OrderWatch {
  /** Wakes the waiters of these orders ('*': every waiter). */
  notify(orderIds: Iterable<string> | '*'): void
  /** Resolves when the order is notified or after ms; never rejects. */
  wait(orderId: string, ms: number): Promise<void>
  /** Waiting calls now (for tests and metrics). */
  waiting(): number
  /** Told of every notify (the payment page's stream fans it out); answers the unsubscribe. */
  subscribe(listener: (orderIds: readonly string[] | '*') => void): () => void
}

export function createOrderWatch(): OrderWatch {
  const waiters = new Map<string, Set<() => void>>()
  let count = 0
  const listeners = new Set<(orderIds: readonly string[] | '*') => void>()
  const wake = (orderId: string) => {
    for (const done of [...(waiters.get(orderId) ?? [])]) done()
  }
  return {
    notify(orderIds) {
      const ids = orderIds === '*' ? '*' : [...orderIds]
      for (const listener of listeners) listener(ids)
      if (ids === '*') {
        for (const id of [...waiters.keys()]) wake(id)
        return
      }
      for (const id of ids) wake(id)
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
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
