// npm run lint:engines: lists which database engines each test file runs on and fails (exit 1)
// when a file breaks the rule of docs/testing.md.
//   tsx tools/test-engines/main.ts                  the check, and how many files run where
//   tsx tools/test-engines/main.ts --list           also the table of every database test file
//   tsx tools/test-engines/main.ts --files postgres the files a run on one engine takes (CI)
import { type Engine, filesFor, testFiles } from './check'

const files = testFiles(process.cwd())
const only = process.argv.indexOf('--files')
if (only !== -1) {
  const engine = process.argv[only + 1]
  if (engine !== 'pglite' && engine !== 'postgres') {
    console.error('--files needs pglite or postgres')
    process.exit(2)
  }
  console.log(filesFor(files, engine as Engine).join('\n'))
  process.exit(0)
}

const width = Math.max(...files.map((f) => f.file.length))
const where = (f: (typeof files)[number]) =>
  f.engines.length === 2 ? 'both' : f.engines.length === 1 ? `${f.engines[0]} only` : '-'
for (const f of process.argv.includes('--list') ? files.filter((f) => f.engines.length) : []) {
  console.log(
    `${f.file.padEnd(width)}  ${where(f).padEnd(13)} ${f.declared}${f.needsPostgres.length ? ` (${f.needsPostgres.join(', ')})` : ''}`,
  )
}
const count = (test: (f: (typeof files)[number]) => boolean) => files.filter(test).length
console.log(
  `\n${files.length} test files: ${count((f) => f.engines.length === 2)} on both engines, ` +
    `${count((f) => f.engines.length === 1 && f.engines[0] === 'pglite')} on PGlite only, ` +
    `${count((f) => f.engines.length === 1 && f.engines[0] === 'postgres')} on PostgreSQL only, ` +
    `${count((f) => f.engines.length === 0)} without a test database.`,
)
const problems = files.filter((f) => f.problem)
for (const f of problems) console.error(`${f.file}: ${f.problem}`)
if (problems.length) {
  console.error(`\n${problems.length} test file(s) break the engine rule of docs/testing.md.`)
  process.exit(1)
}
