import { createWakeableSleep } from '../../lib/poll-loop'

// The request budget of one explorer connection: never more than maxRps requests in any one-second
// window as the explorer sees them, urgent requests (a buyer is waiting) ahead of routine polling,
// and a pause that a rate-limit answer sets for every waiter.

/** Margin added to the one-second window for event-loop stalls and network jitter. */
const SEND_MARGIN_MS = 150

export interface RequestBudget {
  /**
   * Resolves true when the caller may send (it sends in the continuation of this promise), or false
   * when `signal` aborted first: its place in the queue is given up.
   */
  acquire(urgent?: boolean, signal?: AbortSignal): Promise<boolean>
  /** Holds every request back for ms from now; answers the epoch ms of the end of the pause. */
  pause(ms: number): number
  /** Epoch ms until which requests are held back (0 when not paused). */
  pausedUntil(): number
}

export function createRequestBudget(maxRps: number): RequestBudget {
  // Two rules together:
  // - a sliding window over the last maxRps requests, each timed when it really left (the caller's
  //   fetch runs in the continuation of the grant; the time is taken once that has run), and it is
  //   counted from the moment it is granted until then; the window is 1 s plus a margin for
  //   event-loop stalls and network jitter between our clock and the explorer's;
  // - even spacing (1 s / maxRps), so the budget is spent smoothly rather than in bursts.
  const WINDOW_MS = 1000 + SEND_MARGIN_MS
  const interval = 1000 / maxRps
  const slots = Math.max(1, Math.floor(maxRps))
  // Send times of the most recent requests, oldest first; Infinity while a grant has not left yet.
  const sent: number[] = []
  let nextStart = 0
  let pausedUntil = 0
  const urgent: (() => void)[] = []
  const routine: (() => void)[] = []
  let pumping = false
  const { sleep, wake } = createWakeableSleep()

  /** When the next request may leave under the sliding window (0: now). */
  function windowFreeAt(): number {
    while (sent.length > slots) sent.shift()
    if (sent.length < slots) return 0
    const oldest = sent[0] as number
    // A grant that has not left yet holds its slot until it has (wake() is called then).
    return oldest === Number.POSITIVE_INFINITY ? Number.POSITIVE_INFINITY : oldest + WINDOW_MS
  }

  async function pump(): Promise<void> {
    if (pumping) return
    pumping = true
    try {
      while (urgent.length > 0 || routine.length > 0) {
        for (;;) {
          const until = Math.max(nextStart, pausedUntil, windowFreeAt())
          const wait = until - Date.now()
          if (wait <= 0) break
          await sleep(Number.isFinite(wait) ? wait : 1000)
        }
        const next = urgent.shift() ?? routine.shift()
        // Every waiter gave up while the queue was held back: nothing leaves, no slot is spent.
        if (!next) continue
        sent.push(Number.POSITIVE_INFINITY)
        nextStart = Date.now() + interval
        next()
        // The caller's continuation (its fetch) runs before any setImmediate callback; grants
        // leave in order, so the oldest one not yet marked is this one.
        setImmediate(() => {
          markSent()
          wake()
        })
      }
    } finally {
      pumping = false
    }
  }

  /** The oldest grant still marked as not yet left has now left. */
  function markSent(): void {
    const i = sent.indexOf(Number.POSITIVE_INFINITY)
    if (i >= 0) sent[i] = Date.now()
  }

  return {
    acquire(isUrgent = false, signal?: AbortSignal): Promise<boolean> {
      return new Promise<boolean>((resolve) => {
        if (signal?.aborted) return resolve(false)
        const lane = isUrgent ? urgent : routine
        const onAbort = () => {
          const i = lane.indexOf(granted)
          if (i >= 0) lane.splice(i, 1)
          resolve(false)
        }
        function granted() {
          signal?.removeEventListener('abort', onAbort)
          resolve(true)
        }
        signal?.addEventListener('abort', onAbort, { once: true })
        lane.push(granted)
        void pump()
      })
    },
    pause(ms: number): number {
      pausedUntil = Math.max(pausedUntil, Date.now() + ms)
      return pausedUntil
    },
    pausedUntil: () => (pausedUntil > Date.now() ? pausedUntil : 0),
  }
}
