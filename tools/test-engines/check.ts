// Which database engines each test file runs on, and whether that follows the rule of
// docs/testing.md: a file runs on PostgreSQL (as well as PGlite) when it, or the module it tests,
// takes row locks, runs raw SQL or migrations, or works concurrently; PGlite only elsewhere.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'

export type Engine = 'pglite' | 'postgres'

/** Where the SQL or the locking can differ between PGlite and PostgreSQL. */
const IN_THE_TEST: { what: string; pattern: RegExp }[] = [
  {
    what: 'row or advisory locks',
    pattern: /\bfor\s+(no\s+key\s+)?update\b|skip\s+locked|\.for\(\s*['"]|advisory/i,
  },
  { what: 'raw SQL', pattern: /\bsql`|sql\.raw\(|\.execute\(/ },
  { what: 'migrations', pattern: /migrat/i },
  { what: 'concurrent work', pattern: /Promise\.all(Settled)?\(/ },
  { what: 'a second connection to the database', pattern: /\b(database|db)\.url\b/ },
]
/** In the module a test file tests (the other source files of its folder). */
const IN_THE_MODULE: { what: string; pattern: RegExp }[] = [
  {
    what: 'row or advisory locks in the module',
    pattern: /\bfor\s+(no\s+key\s+)?update\b|skip\s+locked|\.for\(\s*['"]|advisory/i,
  },
  { what: 'raw SQL in the module', pattern: /sql\.raw\(|\.execute\(/ },
]

const TEST_FILE = /\.test\.tsx?$/
const ROOTS = ['src', 'tools', 'tests']
const TEST_DB_IMPORT = /import\s*\{([^}]*)\}\s*from\s*['"][./]*tests\/support\/test-db['"]/
const DATABASE_HELPER = /\bcreate(TestDatabase|TestApp|PaymentFixture)\(\s*'(pglite|postgres)'/g

export interface TestFile {
  file: string
  /** The engines it runs on when DATABASE_URL is set; empty for a file that opens no test database. */
  engines: Engine[]
  /** How it chose them: the list it imports from tests/support/test-db, or an engine written out. */
  declared: string
  /** What in it (or its module) makes PostgreSQL necessary. */
  needsPostgres: string[]
  /** Set when the file breaks the rule. */
  problem?: string
}

function walk(dir: string, out: string[]): string[] {
  if (!existsSync(dir)) return out
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue
    const path = join(dir, name)
    if (statSync(path).isDirectory()) walk(path, out)
    else if (TEST_FILE.test(name)) out.push(path)
  }
  return out
}

function moduleSources(testPath: string): string {
  const dir = dirname(testPath)
  return readdirSync(dir)
    .filter((name) => /\.tsx?$/.test(name) && !TEST_FILE.test(name))
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('\n')
}

/** Classifies one test file from its text and the text of its module's sources. */
export function classify(file: string, text: string, module: string): TestFile {
  const needsPostgres = [
    ...IN_THE_TEST.filter(({ pattern }) => pattern.test(text)).map(({ what }) => what),
    ...IN_THE_MODULE.filter(({ pattern }) => pattern.test(module)).map(({ what }) => what),
  ]
  const imported = new Set(
    (text.match(TEST_DB_IMPORT)?.[1] ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name && !name.startsWith('type ')),
  )
  const lists: [string, Engine[]][] = [
    ['engines', ['pglite', 'postgres']],
    ['pgliteOnly', ['pglite']],
    ['postgresOnly', ['postgres']],
  ]
  const declared = lists.filter(([name]) => imported.has(name))
  const written = [...text.matchAll(DATABASE_HELPER)].map((m) => m[2] as Engine)
  const engines = new Set<Engine>([
    ...declared.flatMap(([, list]) => list),
    ...(declared.length ? [] : written),
  ])
  const result: TestFile = {
    file,
    engines: (['pglite', 'postgres'] as const).filter((engine) => engines.has(engine)),
    declared: declared.length
      ? declared.map(([name]) => name).join(' + ')
      : written.length
        ? `'${[...new Set(written)].join("', '")}' written out`
        : 'no test database',
    needsPostgres,
  }
  if (!declared.length && written.length) {
    result.problem =
      'opens a test database with an engine written out: take the engines from tests/support/test-db (engines, pgliteOnly or postgresOnly)'
  } else if (result.engines.length && !result.engines.includes('postgres') && needsPostgres.length) {
    result.problem = `runs on PGlite only but has ${needsPostgres.join(', ')}: use engines (both) instead of pgliteOnly`
  }
  return result
}

/** Every test file of the repository at root, classified. */
export function testFiles(root: string): TestFile[] {
  return ROOTS.flatMap((dir) => walk(join(root, dir), []))
    .sort()
    .map((path) => classify(relative(root, path), readFileSync(path, 'utf8'), moduleSources(path)))
}

/**
 * The files a run on one engine takes: for PGlite every file except those on PostgreSQL only (the
 * files without a test database run there too); for PostgreSQL the files that run on it.
 */
export function filesFor(files: TestFile[], engine: Engine): string[] {
  return files
    .filter((f) =>
      engine === 'postgres'
        ? f.engines.includes('postgres')
        : f.engines.length === 0 || f.engines.includes('pglite'),
    )
    .map((f) => f.file)
}
