import { type ChildProcess, spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, waitFor } from '../../../../tests/support/wait'
import { createTronClient } from './tron-client'

// The explorer budget as the explorer sees it: the devchain runs in its own process (so its
// clock and event loop are not ours) and counts arrivals; this process's event loop is made to
// stall the way embedded database work stalls it.

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'
const SHOP_WALLET = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8'

describe('explorer budget under event-loop stalls', () => {
  let child: ChildProcess
  let url: string

  beforeAll(async () => {
    const port = await freePort()
    url = `http://127.0.0.1:${port}`
    child = spawn(process.execPath, ['--import', 'tsx', 'tools/devchain/main.ts'], {
      env: { ...process.env, DEVCHAIN_PORT: String(port) },
      stdio: 'ignore',
    })
    await waitFor(
      'the devchain',
      async () => (await fetch(`${url}/_sim/state`).catch(() => null))?.ok === true,
      20_000,
    )
  }, 30_000)
  afterAll(() => {
    child?.kill('SIGTERM')
  })

  it('never sends more than maxRps requests in any one-second window', async () => {
    const tron = createTronClient({ baseUrl: url, usdtContract: USDT, maxRps: 5, timeoutMs: 5000 })
    await fetch(`${url}/_sim/stats/reset`, { method: 'POST' })
    // Stalls of 0–300 ms, every few milliseconds, like synchronous SQL on the main thread.
    let stalling = true
    const stall = async () => {
      while (stalling) {
        const until = Date.now() + 100 + Math.random() * 250
        while (Date.now() < until) {}
        await new Promise((r) => setTimeout(r, 20 + Math.random() * 150))
      }
    }
    const stalls = stall()
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 3 === 0 ? tron.getSolidHead() : tron.listTrc20Incoming(SHOP_WALLET, { urgent: i % 5 === 0 }),
      ),
    )
    stalling = false
    await stalls
    expect(results.filter((r) => r.status !== 'success')).toEqual([])
    const stats = (await (await fetch(`${url}/_sim/stats`)).json()) as {
      requests: number
      peakPerSecond: number
    }
    expect(stats.requests).toBe(30)
    expect(stats.peakPerSecond).toBeLessThanOrEqual(5)
  }, 30_000)
})
