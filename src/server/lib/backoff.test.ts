import { describe, expect, it } from 'vitest'
import { backoffDelay } from './backoff'

describe('backoffDelay', () => {
  const backoff = { baseMs: 1000, maxMs: 60_000 }

  it('waits the base after the first failure and doubles after each further one', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, backoff))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 32_000,
    ])
  })

  it('never waits longer than the cap, however many failures', () => {
    expect(backoffDelay(7, backoff)).toBe(60_000)
    expect(backoffDelay(10_000, backoff)).toBe(60_000)
  })

  it('treats no failure yet like the first', () => {
    expect(backoffDelay(0, backoff)).toBe(1000)
  })
})
