import { join } from 'node:path'
import type { BrowserContext, ConsoleMessage } from '@playwright/test'
import { E2E_PORT } from '../playwright.config'
import { buyerWallet } from './support/buyer-wallet'
import { mailTo } from './support/outbox'
import { widths } from './support/screens'
import { startCheckout } from './support/shop'
import { expect, interactiveContext, type Page, test } from './support/test'

// Every page a person reaches loads without a page error (an uncaught exception) and without an
// error in the console (React's hydration errors, such as #419 for a part the server could not
// render, are logged there). The server-rendered pages in each language at both widths, then the
// buyer's walk: cart, checkout, payment, dashboard, the orders link, and the admin's login.

const devchainUrl = `http://127.0.0.1:${E2E_PORT + 1000}`
const outbox = join('.tmp', `e2e-${E2E_PORT}`, 'outbox')

/**
 * The one failure a page expects: the admin login asks whether this browser has a session, and a
 * browser without one is answered 401, which Chromium logs as a failed resource.
 */
const anonymousSessionCheck = (message: ConsoleMessage) =>
  message.text().includes('status of 401') && message.location().url.endsWith('/rpc/secure_admin_session')

/** What the page reports as wrong from now on: uncaught errors and console errors, with the page's path. */
function watchErrors(page: Page): string[] {
  const errors: string[] = []
  const where = () => new URL(page.url()).pathname
  page.on('pageerror', (error) => errors.push(`${where()}: page error: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() !== 'error' || anonymousSessionCheck(message)) return
    errors.push(`${where()}: console: ${message.text()}`)
  })
  return errors
}

/**
 * Lets the page finish what it starts after hydrating (lazy parts, the health check at the first
 * idle moment). Not `networkidle`: the payment page asks for its order's status all the time.
 */
async function settle(page: Page) {
  await page.waitForLoadState('load')
  for (let i = 0; i < 2; i++) {
    await page.evaluate(
      () => new Promise<void>((done) => requestIdleCallback(() => done(), { timeout: 3000 })),
    )
  }
}

const serverRendered = ['/', '/products', '/product/1', '/support']

for (const [label, width] of Object.entries(widths)) {
  for (const locale of ['en-US', 'zh-CN', 'ru-RU']) {
    test(`the server-rendered pages hydrate without an error (${locale}, ${label})`, async ({ browser }) => {
      let context: BrowserContext | undefined
      try {
        context = await interactiveContext(browser, { locale, viewport: { width, height: 900 } })
        const page = await context.newPage()
        const errors = watchErrors(page)
        for (const path of serverRendered) {
          await page.goto(path)
          await expect(page.locator('h1').first()).toBeVisible()
          await settle(page)
        }
        // The support page's form arrives after hydration.
        await page.goto('/support')
        await expect(page.locator('#order-links-email')).toBeVisible()
        await settle(page)
        expect(errors).toEqual([])
      } finally {
        await context?.close()
      }
    })
  }
}

test("the buyer's walk shows no error on any page", async ({ page }) => {
  test.setTimeout(120_000)
  const errors = watchErrors(page)
  const email = `walk-${Date.now()}@example.com`

  await startCheckout(page, email)
  await expect(page).toHaveURL(/\/payment$/)
  await settle(page)
  // Each buying page loaded on its own, as a reload or a shared link opens it.
  for (const path of ['/cart', '/checkout', '/payment']) {
    await page.goto(path)
    await expect(page.locator('main')).not.toBeEmpty()
    await settle(page)
  }
  await expect(page.getByLabel('Wallet address', { exact: true })).toBeVisible()
  const address = await page.getByLabel('Wallet address', { exact: true }).inputValue()
  const amount = (await page.getByTestId('pay-amount').textContent())?.replace('$', '') ?? ''
  const paid = await page.request.post(`${devchainUrl}/_sim/transfers`, {
    data: { to: address, amount, token: 'USDT', from: buyerWallet() },
  })
  expect(paid.ok()).toBe(true)
  expect((await page.request.post(`${devchainUrl}/_sim/mine`, { data: { blocks: 20 } })).ok()).toBe(true)
  const modal = page.getByRole('dialog', { name: 'Payment Successful' })
  await expect(modal).toBeVisible({ timeout: 20_000 })
  const dashboard = await modal.getByRole('textbox', { name: 'Your purchase dashboard' }).inputValue()
  await expect(page).toHaveURL(new RegExp(`:${E2E_PORT}/$`), { timeout: 15_000 })

  await page.goto(new URL(dashboard).pathname)
  await expect(page.getByRole('heading', { name: 'Your purchase' })).toBeVisible()
  await settle(page)

  await page.goto('/support')
  const form = page.getByRole('region', { name: 'E-mail me my orders' })
  await form.getByLabel('E-mail address').fill(email)
  await form.getByRole('button', { name: 'Send me a link' }).click()
  await expect(form.getByRole('status')).toBeVisible()
  const mail = await mailTo(outbox, email, /orders$/, 30_000)
  const link = /http:\/\/127\.0\.0\.1:\d+\/orders\/[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')?.[0] as string
  expect(link).toBeTruthy()
  await page.goto(new URL(link).pathname)
  await expect(page.getByRole('heading', { name: 'Your orders' })).toBeVisible()
  await settle(page)

  await page.goto('/admin/login')
  await expect(page.getByLabel('Username')).toBeVisible()
  await settle(page)

  expect(errors).toEqual([])
})
