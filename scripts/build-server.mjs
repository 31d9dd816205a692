// Bundles the server (our code, drizzle-orm and zod; other packages stay external) into
// dist/server, and writes the empty database cluster the embedded database starts from.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { build } from 'esbuild'

// Packages stay external (node_modules), except these, bundled into the server's files: they are
// ES modules of many small files, and Node 24 reads a package's package.json again for every file
// it resolves; drizzle-orm's is 179 KB, which cost 0.6 s of CPU on every start (decision 034).
// viem's index re-exports hundreds of modules: imported whole it added 29 MB to a process, bundled
// only what the EVM family calls is loaded (decision 046). @noble/hashes and @scure/base go with it
// so that viem's own copy of @noble/hashes (another major version) is the one it gets.
const BUNDLED = new Set(['drizzle-orm', 'zod', 'viem', '@noble/hashes', '@scure/base'])
const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8'))
const external = Object.keys(dependencies)
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`])

// drizzle-orm's PGlite driver imports PGlite only to open a database itself, which the server never
// asks it to (it hands drizzle the proxy to the database's thread): in its place, a stand-in with the
// type ids drizzle reads, so PGlite's JavaScript is not loaded on the main thread (decision 046).
// The database's thread, backups and restores import PGlite from our own files and get the real one.
const drizzlePgliteStandIn = {
  name: 'drizzle-pglite-stand-in',
  setup(build) {
    build.onResolve({ filter: /^@electric-sql\/pglite$/ }, (args) =>
      /[\\/]node_modules[\\/]drizzle-orm[\\/]/.test(args.importer)
        ? { path: fileURLToPath(new URL('../src/server/db/drizzle-pglite-stand-in.ts', import.meta.url)) }
        : undefined,
    )
  },
}

// Chunks are named by their content: the ones of an earlier build go, so the folder holds one build.
for (const name of existsSync('dist/server') ? readdirSync('dist/server') : []) {
  if (/\.js(\.map|\.LEGAL\.txt)?$/.test(name)) rmSync(`dist/server/${name}`)
}

await build({
  // The embedded database's worker thread is its own file next to main.js (see db/pglite-proxy.ts).
  entryPoints: {
    // main.js, the entry `npm start` and systemd run, is the launcher: it starts server.js (the
    // server, src/server/server.ts) under the V8 flags of decision 031.
    main: 'src/server/launch.ts',
    server: 'src/server/server.ts',
    cli: 'src/server/cli.ts',
    'backup-cli': 'src/server/backup-cli.ts',
    doctor: 'src/server/doctor-cli.ts',
    'pglite-worker': 'src/server/db/pglite-worker.ts',
  },
  outdir: 'dist/server',
  bundle: true,
  // Shared code in chunks beside the entries, and a dynamic import its own chunk: the EVM and Solana
  // adapters (viem's client among them) are loaded only when such a chain is enabled (decision 067).
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  external,
  sourcemap: true,
  // Whitespace and comments out, every non-ASCII character escaped: V8 keeps a script's source for
  // as long as the script lives, two bytes a character if a single one is outside Latin-1 (a "—" in
  // a comment is enough). Names stay, so stack traces still name the functions; the source map
  // gives lines (decision 046).
  minifyWhitespace: true,
  charset: 'ascii',
  // Bundled packages' licence comments go to server.js.LEGAL.txt (and the like) beside the bundle.
  legalComments: 'external',
  logLevel: 'warning',
  plugins: [drizzlePgliteStandIn],
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
