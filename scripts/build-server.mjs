// Bundles the server (our code only; packages stay external) into dist/server, and writes the
// empty database cluster the embedded database starts from.
import { writeFileSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { build } from 'esbuild'

await build({
  // The embedded database's worker thread is its own file next to main.js (see db/pglite-proxy.ts).
  entryPoints: {
    // main.js starts server.js under the V8 flags of decision 031 (src/server/launch.ts).
    main: 'src/server/launch.ts',
    server: 'src/server/main.ts',
    cli: 'src/server/cli.ts',
    'backup-cli': 'src/server/backup-cli.ts',
    'pglite-worker': 'src/server/db/pglite-worker.ts',
  },
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
})

// The empty cluster a first start unpacks instead of running PGlite's initdb, which needs about
// twice the memory the running shop does (decision 026). The name is CLUSTER_TEMPLATE in
// src/server/db/cluster-template.ts.
const cluster = new PGlite()
// dumpDataDir on a PGlite that is still starting never settles.
await cluster.waitReady
const tarball = await cluster.dumpDataDir('gzip')
await cluster.close()
writeFileSync('dist/server/pglite-cluster.tar.gz', Buffer.from(await tarball.arrayBuffer()))
