// The launcher: the built shop's entry, dist/server/main.js (the name `npm start` and systemd units
// run). It starts the server (server.ts, built as dist/server/server.js) under the V8 settings a small server needs (decision 031). `node` takes V8's
// memory flags only on its command line, so this replaces its own process with
// `node <flags> main.js` (process.execve, Node 22.15 and newer: the same process id, which systemd
// and `npm start` keep watching) before anything else loads. A Node without process.execve starts
// the server with V8's defaults; the database thread's own limits still apply (db/v8-flags.ts).
// The new process also gets MALLOC_ARENA_MAX (below), which glibc reads only when a process starts.
import { LAUNCH_FLAGS } from './db/v8-flags'

const MARK = 'STABLECART_V8_FLAGS'
const execve = (
  process as unknown as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }
).execve
const flags = LAUNCH_FLAGS
if (execve && process.env[MARK] === undefined) {
  execve(process.execPath, [process.execPath, ...flags, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    [MARK]: flags.join(' '),
    // glibc's malloc gives threads arenas of their own (up to 8 per core) and memory freed in one
    // stays there: after steady traffic the server's threads held about 30 MB more than with two
    // arenas, at no measurable CPU cost (decision 034). A value set by the user is kept.
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
    // glibc raises its mmap threshold each time a large block is freed (up to 32 MB), after which
    // such blocks (compression windows, compilers' zones) come from the arenas and stay there once
    // freed; fixed thresholds give them back to the system at once (decision 070).
    MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '131072',
    MALLOC_TRIM_THRESHOLD_: process.env.MALLOC_TRIM_THRESHOLD_ ?? '131072',
  })
}
await import(new URL('./server.js', import.meta.url).href)
