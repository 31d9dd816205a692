// Bundles the server (our code only; packages stay external) into dist/server.
import { build } from 'esbuild'

await build({
  entryPoints: ['src/server/main.ts', 'src/server/cli.ts', 'src/server/backup-cli.ts'],
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
})
