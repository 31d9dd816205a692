import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { compareWithBaseline, findChainNames } from './check'

// The guard of decision 050 on a small tree: a family named outside its folder is found, inside it
// (and in tests and comments) it is not, and the baseline may only shrink.

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
  file('src/server/chains/tron/tron-family.ts', "export const id = 'tron'\n")
  file('src/server/chains/families.ts', "import { tronFamily } from './tron/tron-family'\n")
  file('src/server/payments/ledger.test.ts', "const chain = 'solana'\n")
  file('src/web/pay.tsx', 'const family = "solana"\n')

  it('finds family ids, reaches into a family folder and family settings outside the family folders only', () => {
    const found = findChainNames(root, ['src'])
    expect(found.map((f) => `${f.file}:${f.line}`).sort()).toEqual([
      'src/server/orders/place.ts:1',
      'src/server/orders/place.ts:2',
      'src/server/payments/ledger.ts:1',
      'src/web/pay.tsx:1',
    ])
  })

  it('fails a file over its baseline, and one under it until the baseline is lowered', () => {
    const found = findChainNames(root, ['src'])
    const ok = compareWithBaseline(found, {
      'src/server/orders/place.ts': 2,
      'src/server/payments/ledger.ts': 1,
      'src/web/pay.tsx': 1,
    })
    expect(ok).toEqual({ over: [], under: [] })
    const grown = compareWithBaseline(found, {
      'src/server/orders/place.ts': 2,
      'src/server/payments/ledger.ts': 1,
    })
    expect(grown.over).toEqual([{ file: 'src/web/pay.tsx', found: 1, allowed: 0 }])
    const shrunk = compareWithBaseline(found, {
      ...{ 'src/server/orders/place.ts': 3 },
      'src/server/payments/ledger.ts': 1,
      'src/web/pay.tsx': 1,
    })
    expect(shrunk.under).toEqual([{ file: 'src/server/orders/place.ts', found: 2, allowed: 3 }])
  })
})
