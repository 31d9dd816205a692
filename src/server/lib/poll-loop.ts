import type { WorkerLogger } from './logger'

// The loop the background workers share (the outboxes, the statistics keeper, the sighting watcher):
// do a pass, sleep until the next poll or until woken (a new row was written in this process), again
// until stopped. A failed pass is logged and the loop goes on.

export interface PollLoop {
  start(): void
  /** Stops after the pass in flight. */
  stop(): Promise<void>
  /** Cuts the current sleep short. */
  wake(): void
}

export function createPollLoop<T = unknown>(opts: {
  pollMs: number
  pass: () => Promise<T>
  /** The pause after a pass when the pass decides it (the sighting watcher's pace); else pollMs. */
  pauseAfter?: (result: T) => number
  /** The pause after a failed pass; else pollMs. */
  failurePauseMs?: number
  logger: WorkerLogger
  /** Names the worker in the log line of a failed pass. */
  name: string
}): PollLoop {
  let running = false
  let loop: Promise<void> | null = null
  let wakeUp: (() => void) | null = null

  async function run(): Promise<void> {
    while (running) {
      let pause = opts.pollMs
      try {
        const result = await opts.pass()
        if (opts.pauseAfter) pause = opts.pauseAfter(result)
      } catch (error) {
        opts.logger.error({ err: error }, `${opts.name} step failed`)
        pause = opts.failurePauseMs ?? opts.pollMs
      }
      if (!running) break
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, pause)
        function done() {
          clearTimeout(timer)
          wakeUp = null
          resolve()
        }
        wakeUp = done
      })
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
      wakeUp?.()
      await loop
      loop = null
    },
    wake() {
      wakeUp?.()
    },
  }
}
