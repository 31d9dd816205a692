// Bundles the server (our code, drizzle-orm and zod; other packages stay external) into
// dist/server, and writes the empty database cluster the embedded database starts from.
import { readFileSync, writeFileSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { build } from 'esbuild'

// Packages stay external (node_modules), except these, bundled into the server's files: they are
// ES modules of many small files, and Node 24 reads a package's package.json again for every file
// it resolves; drizzle-orm's is 179 KB, which cost 0.6 s of CPU on every start (decision 034).
const BUNDLED = new Set(['drizzle-orm', 'zod'])
const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8'))
const external = Object.keys(dependencies)
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`])

await build({
  // The embedded database's worker thread is its own file next to main.js (see db/pglite-proxy.ts).
  entryPoints: {
    // main.js, the entry `npm start` and systemd run, is the launcher: it starts server.js (the
    // server, src/server/server.ts) under the V8 flags of decision 031.
    main: 'src/server/launch.ts',
    server: 'src/server/server.ts',
    cli: 'src/server/cli.ts',
    'backup-cli': 'src/server/backup-cli.ts',
    'pglite-worker': 'src/server/db/pglite-worker.ts',
  },
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  external,
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
