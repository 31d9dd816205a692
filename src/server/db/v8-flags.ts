import { setFlagsFromString } from 'node:v8'

// How V8 runs the embedded database (decision 031). PostgreSQL is 8.7 MB of WebAssembly; V8
// compiles it with Liftoff and recompiles hot functions with its optimising compiler. From V8 13
// (Node 24) that compiler is Turboshaft, which needs about 600 MB of memory for a moment to
// optimise one of PostgreSQL's largest functions (measured: 604 MB zone, 2–13 s), so a first start
// on Node 24 peaked near 1 GB and a 512 MB server killed it. V8 has no switch to leave one function
// out, so on V8 13 and newer the database runs on Liftoff code only. V8 12 (Node 22) and older
// optimise the same function in about 25 MB and keep the optimising compiler.

/** V8's major version, from process.versions.v8 ("13.6.233.17-node.53"). */
export function v8Major(version = process.versions.v8): number {
  return Number.parseInt(version, 10)
}

/** Whether this Node's V8 compiles WebAssembly with Turboshaft (see above). */
export function optimisesWasmWithTurboshaft(version = process.versions.v8): boolean {
  return v8Major(version) >= 13
}

let applied = false

/** Sets the process-wide V8 flags before the database's WebAssembly is first compiled. */
export function applyEmbeddedDatabaseFlags(): void {
  if (applied) return
  applied = true
  if (optimisesWasmWithTurboshaft()) setFlagsFromString('--liftoff-only')
}

/**
 * The flags the built shop starts with (launch.ts). V8's young generation (two semi-spaces, up to
 * 16 MB each on 64-bit machines, per thread) is kept at 1 MB: the server's objects live briefly and
 * PostgreSQL's memory is WebAssembly memory outside V8's heap; measured, it saves about 50 MB of
 * the idle process. On V8 13 and newer, Liftoff only (see above).
 */
export function launchFlags(version = process.versions.v8): string[] {
  return ['--max-semi-space-size=1', ...(optimisesWasmWithTurboshaft(version) ? ['--liftoff-only'] : [])]
}
