import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildServerIfStale } from '../../tests/support/built-server'

// What the built server loads when it starts: server.js and the chunks it imports statically. A
// chain family's adapter is a chunk of its own, imported when one of its chains is enabled
// (decision 067); V8 keeps the source of every script it loads for as long as the process runs.

const dir = join('dist', 'server')

/** The files server.js reaches through static imports (a dynamic import() is not followed). */
function loadedAtStart(): string[] {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const text = readFileSync(join(dir, file), 'utf8')
    for (const m of text.matchAll(/\b(?:import|export)\s*(?:[\w${},*\s]*?from\s*)?"\.\/([^"]+)"/g))
      visit(m[1] as string)
  }
  visit('server.js')
  return [...seen]
}

describe('the built server at start', () => {
  beforeAll(() => buildServerIfStale(), 120_000)

  it('loads neither the EVM nor the Solana adapter, which are chunks of their own', () => {
    const files = readdirSync(dir)
    const evm = files.find((f) => /^evm-adapter-\w+\.js$/.test(f))
    const solana = files.find((f) => /^solana-adapter-\w+\.js$/.test(f))
    expect(readFileSync(join(dir, evm ?? 'missing'), 'utf8')).toContain('function createPublicClient(')
    expect(readFileSync(join(dir, solana ?? 'missing'), 'utf8')).toContain('function createSolanaAdapter(')

    const loaded = loadedAtStart()
    expect(loaded).toContain('server.js')
    expect(loaded.length).toBeGreaterThan(1)
    expect(loaded.filter((f) => /adapter/.test(f))).toEqual([])
    const text = loaded.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n')
    expect(text).not.toContain('function createPublicClient(')
    expect(text).not.toContain('function createSolanaAdapter(')
    // zod's locales (error maps in 40 languages; Hebrew's is he_default) stay out of the bundle.
    expect(text).not.toContain('function he_default()')
    // 860 KB when this was written (1.82 MB with the adapters and all of zod).
    expect(text.length).toBeLessThan(1_100_000)
  })
})
