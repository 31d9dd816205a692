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
    execArgv: ['--expose-gc'],
  },
})
