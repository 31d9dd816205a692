import { setFlagsFromString } from 'node:v8'

// How V8 runs the embedded database (decisions 031 and 036). PostgreSQL is 8.7 MB of WebAssembly;
// by default V8 compiles it with its baseline compiler, Liftoff, and recompiles hot functions with
// its optimising compiler. That costs memory the shop cannot spare on a small server:
// - From V8 13 (Node 24) the optimiser is Turboshaft, which needs about 600 MB for a moment to
//   optimise one of PostgreSQL's largest functions (measured: 604 MB zone, 2–13 s), so a first
//   start peaked near 1 GB and a 512 MB server killed it. V8 has no switch that leaves one
//   function out.
// - On V8 12 (Node 22) the optimised code and what compiling it leaves behind kept the idle shop
//   at about 237 MB against 173 MB with Liftoff only, and its first start at 299 MB idle against
//   194 MB; raising the tiering budget tenfold still left 232 MB. Checkout throughput differed by
//   about 2 % (decision 036).
// So the database runs on Liftoff code only, on every Node.

let applied = false

/** Sets the process-wide V8 flags before the database's WebAssembly is first compiled. */
export function applyEmbeddedDatabaseFlags(): void {
  if (applied) return
  applied = true
  setFlagsFromString('--liftoff-only')
}

/**
 * The flags the built shop starts with (launch.ts):
 * - V8's young generation (two semi-spaces, up to 16 MB each on 64-bit machines, per thread) is kept
 *   at 1 MB: the server's objects live briefly and PostgreSQL's memory is WebAssembly memory outside
 *   V8's heap; measured, it saves about 50 MB of the idle process.
 * - Liftoff only (see above), set on the command line too so that the first WebAssembly compiled,
 *   whichever thread compiles it, is already under it.
 * - `--optimize-for-size` and `--heap-growing-percent=10`: after a major collection V8 lets the old
 *   generation grow to a multiple of what survived (up to 4× on a server with memory to spare) and
 *   keeps what it grew, so steady traffic left both threads' heaps holding garbage and free pages:
 *   with these the heaps grow by a tenth before collecting. Measured side by side (decision 070),
 *   the shop after 5 minutes of storefront and checkout traffic sits about 20–27 MB lower for about
 *   5 % more CPU.
 */
export const LAUNCH_FLAGS: readonly string[] = [
  '--max-semi-space-size=1',
  '--liftoff-only',
  '--optimize-for-size',
  '--heap-growing-percent=10',
]
