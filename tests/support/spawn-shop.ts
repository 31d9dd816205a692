import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { buildServerIfStale } from './built-server'
import { freePort, waitFor } from './wait'

export interface SpawnedShop {
  url: string
  port: number
  /** The shop's process id (its memory in /proc). */
  pid: number
  dataDir: string
  /** Everything the process printed so far (stdout and stderr). */
  output(): string
  stop(): Promise<void>
  /** kill -9: no shutdown of any kind (the data folder stays). */
  kill(): Promise<void>
}

let built = false

/**
 * The real server as it is deployed (the built dist/server/server.js, made from the current sources
 * first when it is missing or stale; CI has built it) in its own process on a free port, with a
 * throw-away data folder unless DATA_DIR is given; resolves once /api/health answers 200. (Through
 * tsx, each start compiled the whole server again: seconds of CPU per shop.)
 */
export async function spawnShop(
  env: Record<string, string> = {},
  opts: { startupMs?: number } = {},
): Promise<SpawnedShop> {
  if (!built) {
    buildServerIfStale()
    built = true
  }
  const port = Number(env.PORT ?? (await freePort()))
  const ownDir = env.DATA_DIR === undefined
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'stablecart-shop-'))
  let output = ''
  const child: ChildProcess = spawn(
    process.execPath,
    // The server itself, not the launcher (which would start it as a second process), so a kill
    // leaves no orphan behind.
    [resolve('dist/server/server.js')],
    {
      env: {
        ...process.env,
        DATABASE_URL: '',
        HOST: '127.0.0.1',
        PRICE_SOURCE: 'fixed:0.25',
        // Nothing listens there: no orders are pending, so the chain follower never asks.
        TRON_API_URL: 'http://127.0.0.1:9',
        ADMIN_PASSWORD: 'correct horse battery',
        ...env,
        PORT: String(port),
        DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  child.stdout?.on('data', (d) => {
    output += d
  })
  child.stderr?.on('data', (d) => {
    output += d
  })
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  const url = `http://127.0.0.1:${port}`
  try {
    await waitFor(
      `the shop on :${port} to answer`,
      async () => {
        if (child.exitCode !== null) throw new Error(`the shop exited with ${child.exitCode}:\n${output}`)
        try {
          return (await fetch(`${url}/api/health`)).ok
        } catch {
          return false
        }
      },
      opts.startupMs ?? 60_000,
    )
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
  return {
    url,
    port,
    pid: child.pid as number,
    dataDir,
    output: () => output,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL')
        await exited
      }
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM')
        await exited
      }
      if (ownDir) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
