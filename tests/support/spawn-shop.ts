import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
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

/**
 * The real server (src/server/server.ts through tsx) in its own process on a free port, with a
 * throw-away data folder unless DATA_DIR is given; resolves once /api/health answers 200.
 */
export async function spawnShop(
  env: Record<string, string> = {},
  opts: { startupMs?: number } = {},
): Promise<SpawnedShop> {
  const port = Number(env.PORT ?? (await freePort()))
  const ownDir = env.DATA_DIR === undefined
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'stablecart-shop-'))
  let output = ''
  const child: ChildProcess = spawn(
    process.execPath,
    // One process (tsx's loader, not its CLI wrapper), so a kill leaves no orphan behind.
    [
      '--import',
      pathToFileURL(resolve('node_modules/tsx/dist/loader.mjs')).href,
      resolve('src/server/server.ts'),
    ],
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
