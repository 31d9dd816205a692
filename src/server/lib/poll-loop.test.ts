import { describe, expect, it } from 'vitest'
import { createPollLoop, createWakeableSleep } from './poll-loop'

const quiet = { info() {}, warn() {}, error() {}, debug() {} } as never

describe('the poll loop', () => {
  it('a wake while nobody sleeps ends the next sleep at once; otherwise a sleep lasts', async () => {
    const pause = createWakeableSleep()
    pause.wake()
    const began = Date.now()
    await pause.sleep(60_000)
    expect(Date.now() - began).toBeLessThan(1_000)
    // The kept wake is spent: the next sleep lasts until it is woken again.
    let ended = false
    const sleeping = pause.sleep(60_000).then(() => {
      ended = true
    })
    await new Promise((r) => setTimeout(r, 50))
    expect(ended).toBe(false)
    pause.wake()
    await sleeping
    expect(ended).toBe(true)
  })

  it('news during a pass starts the next pass at once instead of after the long pause', async () => {
    let passes = 0
    let releaseFirst: () => void = () => {}
    const firstPassHolds = new Promise<void>((r) => {
      releaseFirst = r
    })
    let secondPass: () => void = () => {}
    const second = new Promise<void>((r) => {
      secondPass = r
    })
    const loop = createPollLoop({
      pollMs: 60_000,
      name: 'test',
      logger: quiet,
      pass: async () => {
        passes += 1
        if (passes === 1) await firstPassHolds
        if (passes === 2) secondPass()
      },
    })
    loop.start()
    await new Promise((r) => setTimeout(r, 20))
    // An order placed while the first pass runs (the follower's first pass after a start, say).
    loop.wake()
    releaseFirst()
    const began = Date.now()
    await second
    expect(Date.now() - began).toBeLessThan(5_000)
    await loop.stop()
  })
})
