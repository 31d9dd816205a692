import { describe, expect, it } from 'vitest'
import { launchFlags, optimisesWasmWithTurboshaft } from './v8-flags'

describe('the V8 flags the built shop starts with', () => {
  it('keeps PostgreSQL on Liftoff from V8 13 (Node 24) on, and the optimiser on V8 12 (Node 22)', () => {
    expect(optimisesWasmWithTurboshaft('13.6.233.17-node.53')).toBe(true)
    expect(optimisesWasmWithTurboshaft('12.4.254.21-node.57')).toBe(false)
    expect(launchFlags('13.6.233.17-node.53')).toEqual(['--max-semi-space-size=1', '--liftoff-only'])
    expect(launchFlags('12.4.254.21-node.57')).toEqual(['--max-semi-space-size=1'])
  })
})
