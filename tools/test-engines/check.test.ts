import { describe, expect, it } from 'vitest'
import { classify, filesFor, testFiles } from './check'

const header = (lists: string) => `import { ${lists} } from '../../../tests/support/test-db'\n`
const ormOnly =
  "describe.each(pgliteOnly)('x on %s', (engine) => { it('reads', () => db.select().from(t)) })\n"

describe('the engine rule for test files', () => {
  it('holds for every test file of the repository, and lists each file where it runs', () => {
    const files = testFiles(process.cwd())
    expect(files.filter((f) => f.problem)).toEqual([])
    const mine = files.find((f) => f.file === 'tools/test-engines/check.test.ts')
    expect(mine?.engines).toEqual([])
    // The money path runs on both, a file of several server processes on PostgreSQL only.
    expect(files.find((f) => f.file === 'src/server/payments/settle-paths.test.ts')?.engines).toEqual([
      'pglite',
      'postgres',
    ])
    expect(files.find((f) => f.file === 'src/server/chains/two-processes.test.ts')?.engines).toEqual([
      'postgres',
    ])
    const pglite = filesFor(files, 'pglite')
    const postgres = filesFor(files, 'postgres')
    expect(pglite).toContain('tools/test-engines/check.test.ts')
    expect(pglite).not.toContain('src/server/chains/two-processes.test.ts')
    expect(postgres).toContain('src/server/chains/two-processes.test.ts')
    expect(postgres).not.toContain('tools/test-engines/check.test.ts')
    // Every file runs in one of the two runs.
    expect(new Set([...pglite, ...postgres]).size).toBe(files.length)
  })

  it('lets a file of ORM queries only run on PGlite', () => {
    const f = classify('a.test.ts', header('pgliteOnly') + ormOnly, 'export const x = db.select()')
    expect(f).toMatchObject({ engines: ['pglite'], declared: 'pgliteOnly', needsPostgres: [] })
    expect(f.problem).toBeUndefined()
  })

  it.each([
    ['row locks', "await f.rows(sql.raw('select 1 for update'))", '', 'row or advisory locks'],
    ['raw SQL', 'await f.rows(sql`select * from payments`)', '', 'raw SQL'],
    ['migrations', 'await migratePglite(db)', '', 'migrations'],
    ['concurrent work', 'await Promise.all([a(), b()])', '', 'concurrent work'],
    [
      'locks in the module it tests',
      '',
      "tx.select().from(t).for('update')",
      'row or advisory locks in the module',
    ],
  ])('fails a PGlite-only file with %s, and passes it on both engines', (_, body, module, what) => {
    const only = classify('a.test.ts', header('pgliteOnly') + ormOnly + body, module)
    expect(only.needsPostgres).toContain(what)
    expect(only.problem).toContain('runs on PGlite only')
    const both = classify(
      'a.test.ts',
      header('engines') + ormOnly.replace('pgliteOnly', 'engines') + body,
      module,
    )
    expect(both.engines).toEqual(['pglite', 'postgres'])
    expect(both.problem).toBeUndefined()
  })

  it('fails a file that writes its engine out instead of declaring it', () => {
    const f = classify(
      'a.test.ts',
      // Written in two pieces, so that this file does not itself open a database with an engine written out.
      "import { createTestDatabase } from '../../../tests/support/test-db'\nconst d = await createTestDatabase(" +
        "'pglite')\n",
      '',
    )
    expect(f.engines).toEqual(['pglite'])
    expect(f.problem).toContain('engine written out')
  })

  it('runs a PostgreSQL-only file in the PostgreSQL run alone, even with raw SQL and concurrency', () => {
    const f = classify(
      'pg.test.ts',
      `${header('createTestDatabase, postgresOnly')}describe.skipIf(postgresOnly.length === 0)('x', () => {})\n` +
        'await Promise.all([a(), b()]); await f.rows(sql`select 1`)',
      '',
    )
    expect(f).toMatchObject({ engines: ['postgres'], declared: 'postgresOnly' })
    expect(f.problem).toBeUndefined()
    expect(filesFor([f], 'postgres')).toEqual(['pg.test.ts'])
    expect(filesFor([f], 'pglite')).toEqual([])
  })

  it('runs a file without a test database in the PGlite run alone', () => {
    const f = classify(
      'unit.test.ts',
      "import { expect, it } from 'vitest'\nit('adds', () => expect(1 + 1).toBe(2))",
      '',
    )
    expect(f).toMatchObject({ engines: [], declared: 'no test database', needsPostgres: [] })
    expect(f.problem).toBeUndefined()
    expect(filesFor([f], 'pglite')).toEqual(['unit.test.ts'])
    expect(filesFor([f], 'postgres')).toEqual([])
  })

  it('runs a file that imports the default list on both engines', () => {
    const f = classify(
      'a.test.ts',
      `${header('createTestApp, engines')}describe.each(engines)('x', () => {})`,
      '',
    )
    expect(f.engines).toEqual(['pglite', 'postgres'])
  })
})
