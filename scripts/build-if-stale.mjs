// `npm start` runs this first: it builds (npm run build) only when a built file is missing or
// older than what it is built from, so a restart with a current build starts the server at once.
// CI and the browser tests call `npm run build` themselves and always build fresh.
// `node scripts/build-if-stale.mjs server` does the same for the server bundle alone (npm run
// build:server, a few seconds): the CLI's tests run the built dist/server/cli.js.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

// What `npm run build` reads: the sources, the build's configuration and the installed packages.
const INPUTS = [
  'src',
  'scripts/build-server.mjs',
  'vite.config.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
]
// What it writes; the oldest of them must be newer than every input.
const SERVER_OUTPUTS = [
  'dist/server/main.js',
  'dist/server/server.js',
  'dist/server/cli.js',
  'dist/server/backup-cli.js',
  'dist/server/doctor.js',
  'dist/server/pglite-worker.js',
  'dist/server/pglite-cluster.tar.gz',
]
const serverOnly = process.argv[2] === 'server'
const OUTPUTS = serverOnly
  ? SERVER_OUTPUTS
  : ['dist/web/index.html', 'dist/ssr/entry-server.js', ...SERVER_OUTPUTS]

/** Newest modification time under path, skipping tests (they are not built into dist). */
function newest(path) {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let latest = stat.mtimeMs
  for (const name of readdirSync(path)) {
    if (/\.test\.tsx?$/.test(name)) continue
    latest = Math.max(latest, newest(join(path, name)))
  }
  return latest
}

const missing = OUTPUTS.filter((file) => !existsSync(file))
const builtAt = missing.length ? 0 : Math.min(...OUTPUTS.map((file) => statSync(file).mtimeMs))
const changedAt = Math.max(...INPUTS.map(newest))
if (missing.length === 0 && builtAt >= changedAt) {
  console.log(
    serverOnly
      ? 'The server build in dist/server is current.'
      : 'The build in dist/ is current; starting it.',
  )
} else {
  console.log(
    missing.length
      ? `No complete build in dist/ (${missing.join(', ')} missing): building first.`
      : 'Sources changed since the last build: building first.',
  )
  const build = spawnSync('npm', ['run', serverOnly ? 'build:server' : 'build'], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}
