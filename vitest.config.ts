import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'tools/**/*.test.ts', 'tests/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite instances are memory-hungry and the machines have 2 cores.
    maxWorkers: 2,
    // Memory tests (the streamed CSV export) collect garbage before they measure the live heap.
    // PostgreSQL's WebAssembly on V8's baseline compiler only, as the shop runs it (decision 031):
    // without it every test file's fresh process optimised PostgreSQL's hot functions again in the
    // background, about a third of the CPU a PGlite test file costs (measured: 21.4 → 15.8 s of CPU
    // for three files).
    execArgv: ['--expose-gc', '--liftoff-only'],
  },
})
