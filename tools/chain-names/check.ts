import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

// The lint guard of decision 050: outside the family folders, the family list, migrations and
// tests, no code names a chain family or reaches into one. A family is asked through its family
// object (chains/families.ts) or its chain's adapter, never by a literal id or a family's own names.

/** Files and folders where a family may be named: its own folder, the family lists. */
export const ALLOWED: readonly string[] = [
  'src/server/chains/tron/',
  'src/server/chains/evm/',
  'src/server/chains/solana/',
  'src/server/chains/families.ts',
  'src/server/chains/token-table.ts',
  'src/shared/chains.ts',
  // The families' address codecs, shared with the browser (the checkout and refund forms check as typed).
  'src/shared/tron-address.ts',
  'src/shared/evm-address.ts',
  'src/shared/solana-address.ts',
  // Each family's address form for typed addresses, the browser's side of the family objects.
  'src/shared/address-forms.ts',
]

/** What names a family: its id as a string, or a name only one family has (its settings, its code). */
export const PATTERNS: readonly { name: string; re: RegExp }[] = [
  { name: "a family id ('tron', 'evm', 'solana')", re: /['"`](tron|evm|solana)['"`]/g },
  {
    // Any path into a family's folder, relative to the chains wing ('./tron/…') or from afar, and
    // a module loaded when needed (import('…/evm/…')).
    name: "a family's own code (chains/<family>/)",
    re: /(?:from\s+|import\(\s*)['"](?:[^'"]*\/)?(tron|evm|solana)\/[^'"]*['"]/g,
  },
  { name: "a family's settings (TRON_*, EVM_*)", re: /\b(TRON|EVM|SOLANA)_[A-Z_]+\b/g },
]

export interface Finding {
  file: string
  line: number
  text: string
  what: string
}

function isTest(file: string): boolean {
  return /\.test\.tsx?$/.test(file) || file.includes(`${sep}__tests__${sep}`)
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) walk(path, out)
    else if (/\.tsx?$/.test(name) && !isTest(path)) out.push(path)
  }
}

/** Every place under `roots` (relative to `base`) that names a family outside the allowed files. */
export function findChainNames(base: string, roots: readonly string[]): Finding[] {
  const files: string[] = []
  for (const root of roots) walk(join(base, root), files)
  const findings: Finding[] = []
  for (const path of files) {
    const file = relative(base, path).split(sep).join('/')
    if (ALLOWED.some((a) => (a.endsWith('/') ? file.startsWith(a) : file === a))) continue
    const lines = readFileSync(path, 'utf8').split('\n')
    lines.forEach((text, i) => {
      if (/^\s*(\/\/|\*|\/\*)/.test(text)) return
      for (const { name, re } of PATTERNS) {
        re.lastIndex = 0
        if (re.test(text)) findings.push({ file, line: i + 1, text: text.trim(), what: name })
      }
    })
  }
  return findings
}
