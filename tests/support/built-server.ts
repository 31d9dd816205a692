import { spawnSync } from 'node:child_process'

/**
 * Makes sure dist/server holds a server bundle built from the current sources (npm run
 * build:server when it is missing or stale: a few seconds), for tests that run the built CLIs as
 * the operator does (`npm run wallets:add` runs dist/server/cli.js). CI has built it already.
 */
export function buildServerIfStale(): void {
  const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs', 'server'], { encoding: 'utf8' })
  if (build.status !== 0) throw new Error(`building the server failed:\n${build.stdout}${build.stderr}`)
}
