import type { WorkerLogger } from './logger'

// The loop the outbox workers share: do a pass, sleep until the next poll or until woken (a new row
// was written in this process), again until stopped. A failed pass is logged and the loop goes on.

export interface PollLoop {
  start(): void
  /** Stops after the pass in flight. */
  stop(): Promise<void>
  /** Cuts the current sleep short. */
  wake(): void
}

export function createPollLoop(opts: {
  pollMs: number
  pass: () => Promise<unknown>
  logger: WorkerLogger
  /** Names the worker in the log line of a failed pass. */
  name: string
}): PollLoop {
  let running = false
  let loop: Promise<void> | null = null
  let wakeUp: (() => void) | null = null

  async function run(): Promise<void> {
    while (running) {
      try {
        await opts.pass()
      } catch (error) {
        opts.logger.error({ err: error }, `${opts.name} step failed`)
      }
      if (!running) break
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, opts.pollMs)
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
