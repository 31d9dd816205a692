// Bundles the server (our code only; packages stay external) into dist/server.
import { build } from 'esbuild'

await build({
  // The embedded database's worker thread is its own file next to main.js (see db/pglite-proxy.ts).
  entryPoints: {
    main: 'src/server/main.ts',
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
