import { defineConfig, devices } from '@playwright/test'

// Debian's Chromium: there is no internet to download Playwright's own browser.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4317)
/** A second shop whose payment window is 15 s, for the expiry path. */
export const E2E_SHORT_WINDOW_PORT = E2E_PORT + 1

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  // Spec files run side by side, the tests of a file in order. A spec with its own shop finds free
  // ports for it (e2e/support/own-shop.ts); the others share the two shops below.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    trace: 'off',
    launchOptions: {
      executablePath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: [
    {
      command: 'node e2e/support/start-shop.mjs',
      url: `http://127.0.0.1:${E2E_PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { E2E_PORT: String(E2E_PORT) },
    },
    {
      command: 'node e2e/support/start-shop.mjs',
      url: `http://127.0.0.1:${E2E_SHORT_WINDOW_PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        E2E_PORT: String(E2E_SHORT_WINDOW_PORT),
        PAYMENT_WINDOW_MINUTES: '0.25',
        // This shop's TRX price source is down (nothing listens on port 9): USDT must still work.
        PRICE_API_URL: 'http://127.0.0.1:9',
      },
    },
  ],
})
