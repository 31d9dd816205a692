import { E2E_PORT } from '../playwright.config'
import { buyerWallet } from './support/buyer-wallet'
import { shoot } from './support/screens'
import { startCheckout } from './support/shop'
import { expect, type Page, test } from './support/test'

const devchainUrl = `http://127.0.0.1:${E2E_PORT + 1000}`

async function checkoutFirstProduct(page: Page, email: string) {
  await startCheckout(page, email)
  await expect(page).toHaveURL(/\/payment$/)
  const address = await page.getByLabel('Wallet address', { exact: true }).inputValue()
  const amount = (await page.getByTestId('pay-amount').textContent())?.replace('$', '') ?? ''
  return { address, amount }
}

async function mine(page: Page, blocks: number) {
  const response = await page.request.post(`${devchainUrl}/_sim/mine`, { data: { blocks } })
  expect(response.ok()).toBe(true)
}

/** Sends a transfer and mines its block, then (solid) 19 more so the chain solidifies it. */
async function pay(page: Page, body: Record<string, unknown>, solid = true) {
  const response = await page.request.post(`${devchainUrl}/_sim/transfers`, {
    data: { from: buyerWallet(), ...body },
  })
  expect(response.ok()).toBe(true)
  await mine(page, solid ? 20 : 1)
  return (await response.json()) as { transaction_id: string }
}

test.describe('paying through the devchain', () => {
  test('a USDT payment shows Payment Successful and lands on / with the dashboard link stored', async ({
    page,
  }) => {
    const { address, amount } = await checkoutFirstProduct(page, 'usdt-buyer@example.com')
    await pay(page, { to: address, amount, token: 'USDT' })

    await expect(page.getByText('Payment confirmed! Redirecting...')).toBeVisible({ timeout: 15_000 })
    const modal = page.getByRole('dialog', { name: 'Payment Successful' })
    await expect(modal).toBeVisible()
    await expect(modal.getByText(`$${amount}`)).toBeVisible()
    const link = await modal.getByRole('textbox', { name: 'Your purchase dashboard' }).inputValue()
    expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${E2E_PORT}/dashboard/[A-Za-z0-9_-]{22,}$`))
    await expect(modal.getByText(/Save this link/)).toBeVisible()
    await expect(modal.getByRole('button', { name: 'Open Dashboard' })).toBeVisible()
    await shoot(page, 'payment-success')

    // After 3 s: checkout reset, back on /, the link kept.
    await expect(page).toHaveURL(new RegExp(`:${E2E_PORT}/$`), { timeout: 10_000 })
    expect(await page.evaluate(() => localStorage.getItem('dashboard_url'))).toBe(JSON.stringify(link))
    expect(await page.evaluate(() => localStorage.getItem('checkout-state'))).toBeNull()
    await expect(page.getByTestId('cart-badge')).toHaveCount(0)
    await modal.getByRole('button', { name: 'Got it!' }).click()
    await expect(modal).toBeHidden()
    expect(await page.evaluate(() => localStorage.getItem('payment_success'))).toBeNull()
  })

  test('a TRX payment at the locked rate is accepted too', async ({ page }) => {
    const { address } = await checkoutFirstProduct(page, 'trx-buyer@example.com')
    const trx = await page.getByLabel('Or pay in TRX').inputValue()
    await pay(page, { to: address, amount: trx, token: 'TRX' })
    await expect(page.getByRole('dialog', { name: 'Payment Successful' })).toBeVisible({ timeout: 15_000 })
    await expect(page).toHaveURL(new RegExp(`:${E2E_PORT}/$`), { timeout: 10_000 })
  })

  test('"Already paid?": the server checks the hash on chain and says why it cannot confirm yet', async ({
    page,
  }) => {
    const { address, amount } = await checkoutFirstProduct(page, 'hash-buyer@example.com')
    const sent = await pay(page, { to: address, amount }, false)
    await page.getByText('Already paid? Enter your transaction hash').click()
    const field = page.getByLabel('Transaction hash')
    await field.fill('not a hash')
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(page.getByRole('alert').filter({ hasText: '64 hexadecimal' })).toBeVisible()
    await field.fill(sent.transaction_id)
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(page.getByText('This transaction is not confirmed yet.', { exact: false })).toBeVisible()

    await mine(page, 19)
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect(page.getByRole('dialog', { name: 'Payment Successful' })).toBeVisible({ timeout: 15_000 })
  })
})
