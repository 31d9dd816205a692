import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { findChainNames } from './check'

// The guard of decision 050 on a small tree: a family named outside its folder is found, inside it
// (and in tests and comments) it is not, and `npm run lint:chains` fails on any one place found
// (there is no baseline to grow into).

/** The command npm run lint:chains runs, started in a tree of our own. */
const tsx = join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'tsx')
const root = mkdtempSync(join(tmpdir(), 'chain-names-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

function file(path: string, text: string) {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), text)
}

describe('the chain-names guard', () => {
  file('src/server/payments/ledger.ts', "const chain = t.chain ?? 'tron'\n// 'tron' in a comment\n")
  file(
    'src/server/orders/place.ts',
    "import { evmChain } from '../chains/evm/chains'\nconst n = env.EVM_CHAINS\n",
  )
  file(
    'src/server/chains/chain-follower.ts',
    "import { createTronFinalReads } from './tron/tron-final'\nconst m = await import('./evm/evm-adapter')\nimport { x } from '@solana/kit'\n",
  )
  file('src/server/chains/tron/tron-family.ts', "export const id = 'tron'\n")
  file('src/server/chains/evm/evm-family.ts', "const { createEvmAdapter } = await import('./evm-adapter')\n")
  file('src/server/chains/families.ts', "import { tronFamily } from './tron/tron-family'\n")
  file('src/server/payments/ledger.test.ts', "const chain = 'solana'\n")
  file('src/web/pay.tsx', 'const family = "solana"\n')

  it('finds family ids, reaches into a family folder and family settings outside the family folders only', () => {
    const found = findChainNames(root, ['src'])
    expect(found.map((f) => `${f.file}:${f.line}`).sort()).toEqual([
      'src/server/chains/chain-follower.ts:1',
      'src/server/chains/chain-follower.ts:2',
      'src/server/orders/place.ts:1',
      'src/server/orders/place.ts:2',
      'src/server/payments/ledger.ts:1',
      'src/web/pay.tsx:1',
    ])
  })

  it('npm run lint:chains passes a tree that names no family outside the family folders, and fails on one new place', () => {
    const clean = mkdtempSync(join(tmpdir(), 'chain-names-clean-'))
    try {
      const put = (path: string, text: string) => {
        mkdirSync(dirname(join(clean, path)), { recursive: true })
        writeFileSync(join(clean, path), text)
      }
      put('src/server/chains/tron/tron-family.ts', "export const id = 'tron'\n")
      put('src/server/payments/ledger.ts', 'const chain = t.chain ?? firstChain\n')
      const run = () =>
        spawnSync(tsx, [join(import.meta.dirname, 'main.ts')], {
          cwd: clean,
          encoding: 'utf8',
        })
      const passed = run()
      expect(passed.stderr).toBe('')
      expect(passed.status).toBe(0)
      put('src/server/orders/place.ts', 'const n = env.SOLANA_POLL_MS\n')
      const failed = run()
      expect(failed.status).toBe(1)
      expect(failed.stderr).toContain('src/server/orders/place.ts:1')
      expect(failed.stderr).toContain('chain names: 1 in 1 file(s)')
    } finally {
      rmSync(clean, { recursive: true, force: true })
    }
  })
})
