import { type ChildProcess, spawn } from 'node:child_process'
import { test } from './test'

/**
 * A spec file's own shop (and devchain) on `port`, started before its tests and stopped after, for
 * specs that need their own admin password or settings. Its tests run in order, against that shop.
 */
export function ownShopForThisFile(port: number, env: Record<string, string>, name: string): void {
  const base = `http://127.0.0.1:${port}`
  let shop: ChildProcess | undefined

  test.describe.configure({ mode: 'serial' })
  test.use({ baseURL: base })

  test.beforeAll(async () => {
    // Starting a third shop beside the two of the config can take over a minute on a busy machine.
    test.setTimeout(150_000)
    shop = spawn(process.execPath, ['e2e/support/start-shop.mjs'], {
      env: { ...process.env, E2E_PORT: String(port), ...env },
      stdio: 'ignore',
    })
    for (let i = 0; i < 700; i++) {
      try {
        if ((await fetch(`${base}/api/health`)).ok) return
      } catch {}
      await new Promise((r) => setTimeout(r, 200))
    }
    throw new Error(`the ${name} e2e shop did not start`)
  })

  // Waits for the shop to exit, so the next spec never finds this one still answering.
  test.afterAll(async () => {
    const child = shop
    if (!child || child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  })
}
