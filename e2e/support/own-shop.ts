import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { test } from './test'

/**
 * Two distinct TCP ports nothing listens on right now, found when the spec file loads (Playwright
 * reads a test's baseURL before the file's beforeAll runs, so the ports must be known by then).
 */
function twoFreePorts(): [number, number] {
  const script = `const net = require('node:net')
const a = net.createServer().listen(0, '127.0.0.1', () => {
  const b = net.createServer().listen(0, '127.0.0.1', () => {
    console.log(a.address().port + ' ' + b.address().port)
    a.close()
    b.close()
  })
})`
  const [a, b] = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })
    .trim()
    .split(' ')
    .map(Number)
  return [a as number, b as number]
}

/** A spec file's own shop: its ports are chosen when the file loads, it answers once beforeAll has run. */
export interface OwnShop {
  readonly port: number
  /** http://127.0.0.1:<port>, also the file's baseURL. */
  readonly url: string
  /** Its devchain (the TronGrid stand-in and price source), for /_sim/transfers, /_sim/mine… */
  readonly devchainUrl: string
  /** The shop's data folder; its mails are in `outbox`. */
  readonly dataDir: string
  readonly outbox: string
}

type Env = Record<string, string>
/** The shop's settings; a function when they name the shop's own ports (its devchain as a provider). */
type EnvFor = Env | ((ports: { port: number; devchainUrl: string }) => Env)

/**
 * A spec file's own shop and devchain, started before its tests and stopped after, for specs that
 * need settings of their own or change what other specs rely on (the admin password, two-factor
 * login). Both listen on ports found free when the file loads, so spec files run side by side in
 * any number of Playwright workers without a table of ports; the devchain's port is passed to
 * the shop explicitly. Its tests run in order, against that shop (their baseURL).
 *
 * The older form ownShopForThisFile(port, env, name) still starts the shop on that fixed port and
 * its devchain on port + 1000; new specs use the form without a port.
 */
export function ownShopForThisFile(env: EnvFor, name: string): OwnShop
export function ownShopForThisFile(port: number, env: Env, name: string): OwnShop
export function ownShopForThisFile(...args: [EnvFor, string] | [number, Env, string]): OwnShop {
  const fixedPort = typeof args[0] === 'number' ? args[0] : undefined
  const envFor = (typeof args[0] === 'number' ? args[1] : args[0]) as EnvFor
  const name = (typeof args[0] === 'number' ? args[2] : args[1]) as string
  const [port, devchainPort] = fixedPort !== undefined ? [fixedPort, fixedPort + 1000] : twoFreePorts()
  let shop: ChildProcess | undefined

  const handle: OwnShop = {
    port,
    url: `http://127.0.0.1:${port}`,
    devchainUrl: `http://127.0.0.1:${devchainPort}`,
    dataDir: join('.tmp', `e2e-${port}`),
    outbox: join('.tmp', `e2e-${port}`, 'outbox'),
  }

  test.describe.configure({ mode: 'serial' })
  test.use({ baseURL: handle.url })

  test.beforeAll(async () => {
    // Starting a shop beside the two of the config can take over a minute on a busy machine.
    test.setTimeout(150_000)
    const env = typeof envFor === 'function' ? envFor({ port, devchainUrl: handle.devchainUrl }) : envFor
    const child = spawn(process.execPath, ['e2e/support/start-shop.mjs'], {
      env: { ...process.env, E2E_PORT: String(port), E2E_DEVCHAIN_PORT: String(devchainPort), ...env },
      stdio: 'ignore',
    })
    shop = child
    for (let i = 0; i < 700; i++) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`the ${name} e2e shop exited while starting (port ${port} or ${devchainPort} taken?)`)
      }
      try {
        if ((await fetch(`${handle.url}/api/health`)).ok) return
      } catch {}
      await new Promise((r) => setTimeout(r, 200))
    }
    throw new Error(`the ${name} e2e shop did not start`)
  })

  // Waits for the shop to exit, so nothing of this file is still answering after it, then removes
  // its data folder (a free port is another one next run: its folder would stay behind).
  test.afterAll(async () => {
    const child = shop
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    }
    if (fixedPort === undefined) rmSync(handle.dataDir, { recursive: true, force: true })
  })
  return handle
}
