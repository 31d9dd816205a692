import { messages } from '../src/shared/checkout-rules'
import { buyerWallet } from './support/buyer-wallet'
import { ownShopForThisFile } from './support/own-shop'
import { shoot } from './support/screens'
import { adminLogin, startCheckout } from './support/shop'
import { expect, type Page, test } from './support/test'

// The chain seen by the buyer and the operator when payment detection lags. Its own shop, whose
// devchain mines only when a test asks: with no new block for 6 s, detection counts as delayed.
// Two providers: the devchain, and a second one that is down.
const PASSWORD = 'e2e-providers-password'

const shop = ownShopForThisFile(
  ({ devchainUrl }) => ({
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD: PASSWORD,
    PAYMENT_DELAY_NOTICE_MINUTES: '0.1',
    TRON_PROVIDER_1_URL: devchainUrl,
    TRON_PROVIDER_1_NAME: 'devchain',
    TRON_PROVIDER_1_KEYS: 'key-one,key-two',
    TRON_PROVIDER_1_PER_DAY: '100000',
    // Nothing listens on port 9.
    TRON_PROVIDER_2_URL: 'http://127.0.0.1:9',
    TRON_PROVIDER_2_NAME: 'backup node',
  }),
  'providers',
)

async function mine(page: Page, blocks: number) {
  const response = await page.request.post(`${shop.devchainUrl}/_sim/mine`, { data: { blocks } })
  expect(response.ok()).toBe(true)
}

const login = (page: Page) => adminLogin(page, PASSWORD)

test('the payment page says when detection lags, and the payment is credited once it catches up', async ({
  page,
}) => {
  await startCheckout(page, 'lag-buyer@example.com')
  await expect(page).toHaveURL(/\/payment$/)
  const notice = page.getByRole('status').filter({ hasText: 'Payment detection is delayed' })
  await expect(notice).toBeVisible({ timeout: 20_000 })
  await expect(notice).toContainText('A payment you make now is safe')
  await shoot(page, 'payment-detection-delayed')

  const address = await page.getByLabel('Wallet address', { exact: true }).inputValue()
  const amount = (await page.getByTestId('pay-amount').textContent())?.replace('$', '') ?? ''
  const sent = await page.request.post(`${shop.devchainUrl}/_sim/transfers`, {
    data: { to: address, amount, from: buyerWallet() },
  })
  expect(sent.ok()).toBe(true)
  await mine(page, 20)
  await expect(page.getByText('Payment confirmed! Redirecting...')).toBeVisible({ timeout: 15_000 })
})

test('with the setting on, new checkouts are refused while detection lags', async ({ page }) => {
  await login(page)
  await page.getByRole('link', { name: 'Settings' }).first().click()
  const refuse = page.getByRole('checkbox', {
    name: /Refuse new checkouts while payment detection is delayed/,
  })
  await refuse.check()
  await page.getByRole('button', { name: 'Save Settings' }).click()
  await expect(page.getByText('Settings saved')).toBeVisible()

  // No block for 6 s: detection is delayed and the shop takes no new order.
  await expect
    .poll(
      async () =>
        (await (await page.request.post('/rpc/secure_get_wallet_address', { data: {} })).json()).error,
      { timeout: 20_000 },
    )
    .toBe(messages.unavailable)
  await startCheckout(page, 'refused@example.com')
  await expect(page.getByText(messages.unavailable)).toBeVisible()
  await expect(page).toHaveURL(/\/checkout$/)

  // The chain moves again, a block every 2 s from here on (a checkout in a browser on a busy machine
  // can take longer than the 6 s without a block that count as delayed): checkouts are taken.
  await mine(page, 20)
  const moving = setInterval(() => {
    fetch(`${shop.devchainUrl}/_sim/mine`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blocks: 1 }),
    }).catch(() => {})
  }, 2000)
  try {
    await expect
      .poll(
        async () =>
          (await (await page.request.post('/rpc/secure_get_wallet_address', { data: {} })).json()).success,
        { timeout: 15_000 },
      )
      .toBe(true)
    await startCheckout(page, 'accepted@example.com')
    await expect(page).toHaveURL(/\/payment$/)
  } finally {
    clearInterval(moving)
  }
})

test('the admin chain page lists the providers and tests one, at 375 and 1440 px', async ({ page }) => {
  await login(page)
  await page.goto('/admin/chain')
  await expect(page.getByRole('heading', { name: 'Chain providers' })).toBeVisible()
  const devchain = page.getByRole('listitem', { name: 'devchain' })
  const backup = page.getByRole('listitem', { name: 'backup node' })
  await expect(devchain).toContainText('Healthy')
  await expect(devchain).toContainText('2 key(s)')
  await expect(devchain).toContainText(/Requests today\s*[\d,]+ of 200,000/)
  await backup.getByRole('button', { name: 'Test backup node' }).click()
  await expect(backup.getByRole('status')).toContainText('Failed after')
  await expect(backup).toContainText('Last error at')
  await devchain.getByRole('button', { name: 'Test devchain' }).click()
  await expect(devchain.getByRole('status')).toContainText(/Answered in \d+ ms, solidified block \d+/)
  await shoot(page, 'admin-chain')
})
