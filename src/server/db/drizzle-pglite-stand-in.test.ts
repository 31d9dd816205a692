import { types } from '@electric-sql/pglite'
import { describe, expect, it } from 'vitest'
import * as standIn from './drizzle-pglite-stand-in'

describe("drizzle's PGlite stand-in in the server's bundle", () => {
  it('has the type ids drizzle reads, as PGlite has them', () => {
    for (const name of ['DATE', 'TIMESTAMP', 'TIMESTAMPTZ', 'INTERVAL'] as const) {
      expect(standIn.types[name]).toBe(types[name])
    }
  })

  it('refuses to open a database', () => {
    expect(() => new standIn.PGlite()).toThrow(/database thread/)
  })
})
