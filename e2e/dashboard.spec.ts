import { join } from 'node:path'
import { E2E_PORT } from '../playwright.config'
import { buyerWallet } from './support/buyer-wallet'
import { mailTo as mailToIn } from './support/outbox'
import { shoot } from './support/screens'
import { expect, test } from './support/test'

const devchainUrl = `http://127.0.0.1:${E2E_PORT + 1000}`
// start-shop.mjs runs the shop without SMTP_URL, so mail lands as .eml files here.
const outbox = join('.tmp', `e2e-${E2E_PORT}`, 'outbox')

const mailTo = (address: string) => mailToIn(outbox, address)

test.describe('buyer dashboard', () => {
  test('the link in the delivered e-mail opens the dashboard with the keys', async ({ page }) => {
    await page.goto('/')
    const cards = page.getByRole('article').filter({ has: page.getByRole('button', { name: 'Add to Cart' }) })
    await cards.nth(0).getByRole('button', { name: 'Add to Cart' }).click()
    await cards.nth(1).getByRole('button', { name: 'Add to Cart' }).click()
    await page.goto('/checkout')
    await page.getByLabel('Email address').fill('dashboard-buyer@example.com')
    await page.getByRole('button', { name: 'Continue to Payment' }).click()
    await expect(page).toHaveURL(/\/payment$/)
    const address = await page.getByLabel('Wallet address', { exact: true }).inputValue()
    const amount = (await page.getByTestId('pay-amount').textContent())?.replace('$', '') ?? ''
    const paid = await page.request.post(`${devchainUrl}/_sim/transfers`, {
      data: { to: address, amount, from: buyerWallet() },
    })
    expect(paid.ok()).toBe(true)
    // Solidify it: its block plus 19 on top.
    expect((await page.request.post(`${devchainUrl}/_sim/mine`, { data: { blocks: 20 } })).ok()).toBe(true)
    await expect(page.getByRole('dialog', { name: 'Payment Successful' })).toBeVisible({ timeout: 15_000 })

    const mail = await mailTo('dashboard-buyer@example.com')
    const link = /http:\/\/127\.0\.0\.1:\d+\/dashboard\/[A-Za-z0-9_-]{32}/.exec(mail.text ?? '')?.[0]
    expect(link).toBeTruthy()
    const keys = [...(mail.text ?? '').matchAll(/Key: (\S+)/g)].map((m) => m[1] as string)
    expect(keys).toHaveLength(2)

    await page.goto(link as string)
    await expect(page.getByRole('heading', { name: 'Your purchase' })).toBeVisible()
    await expect(page.getByText('Paid', { exact: true })).toBeVisible()
    // Each key in its own copy field (a text area that wraps), shown whole.
    const boxes = page.getByRole('textbox')
    const values = await boxes.evaluateAll((els) => els.map((el) => (el as HTMLTextAreaElement).value))
    for (const key of keys) {
      const index = values.indexOf(key)
      expect(index, `a field holding ${key}`).toBeGreaterThanOrEqual(0)
      await expect(boxes.nth(index)).toBeVisible()
      await expect(boxes.nth(index)).toHaveValue(key)
    }
    await expect(page.getByRole('link', { name: /View the transaction on Tronscan/ })).toHaveAttribute(
      'href',
      /^https:\/\/tronscan\.org\/#\/transaction\/[0-9a-f]{64}$/,
    )
    await expect(page.getByRole('heading', { name: 'Need help?' })).toBeVisible()
    // The purchase is over: the cart is empty and no checkout is running.
    await expect(page.getByTestId('cart-badge')).toHaveCount(0)
    await shoot(page, 'dashboard')
  })

  test('an unknown or malformed link shows "Link not found" and nothing about any order', async ({
    page,
  }) => {
    await page.goto(`/dashboard/${'A'.repeat(32)}`)
    await expect(page.getByRole('heading', { name: 'Link not found' })).toBeVisible()
    await page.goto('/dashboard/not-a-token')
    await expect(page.getByRole('heading', { name: 'Link not found' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Back to the shop' })).toBeVisible()
    await shoot(page, 'dashboard-not-found')
  })
})
