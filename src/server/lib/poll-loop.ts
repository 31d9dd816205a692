import type { WorkerLogger } from './logger'

// The loop the background workers share (the outboxes, the statistics keeper, the chain follower,
// the sighting watcher):
// do a pass, sleep until the next poll or until woken (a new row was written in this process), again
// until stopped. A failed pass is logged and the loop goes on.

export interface PollLoop {
  start(): void
  /** Stops after the pass in flight. */
  stop(): Promise<void>
  /** Cuts the current sleep short. */
  wake(): void
}

/**
 * A sleep that wake() cuts short (one sleeper at a time): the poll loop's, and the request budget's
 * pump. A wake while nobody sleeps (the worker is in a pass) is kept: the next sleep ends at once,
 * so news that came during a pass is not left until the pause after it (an order placed while the
 * chain follower's first pass ran waited its whole idle pause, 45 s).
 */
export function createWakeableSleep(): { sleep(ms: number): Promise<void>; wake(): void } {
  let wakeUp: (() => void) | undefined
  let woken = false
  return {
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        if (woken) {
          woken = false
          resolve()
          return
        }
        const timer = setTimeout(done, ms)
        function done() {
          clearTimeout(timer)
          wakeUp = undefined
          resolve()
        }
        wakeUp = done
      }),
    wake: () => {
      if (wakeUp) wakeUp()
      else woken = true
    },
  }
}

export function createPollLoop<T = unknown>(opts: {
  pollMs: number
  pass: () => Promise<T>
  /** The pause after a pass when the pass decides it (the follower's and the sighting watcher's pace);
   * else pollMs. 0 starts the next pass at once. */
  pauseAfter?: (result: T) => number
  /** The pause after a failed pass; else pollMs. */
  failurePauseMs?: number
  logger: WorkerLogger
  /** Names the worker in the log line of a failed pass. */
  name: string
}): PollLoop {
  let running = false
  let loop: Promise<void> | null = null
  const pause = createWakeableSleep()

  async function run(): Promise<void> {
    while (running) {
      let ms = opts.pollMs
      try {
        const result = await opts.pass()
        if (opts.pauseAfter) ms = opts.pauseAfter(result)
      } catch (error) {
        opts.logger.error({ err: error }, `${opts.name} step failed`)
        ms = opts.failurePauseMs ?? opts.pollMs
      }
      if (!running) break
      if (ms > 0) await pause.sleep(ms)
    }
  }

  return {
    start() {
      if (running) return
      running = true
      loop = run()
    },
    async stop() {
      running = false
      pause.wake()
      await loop
      loop = null
    },
    wake() {
      pause.wake()
    },
  }
}
