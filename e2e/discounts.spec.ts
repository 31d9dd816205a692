import { buyerWallet } from './support/buyer-wallet'
import { mailTo } from './support/outbox'
import { ownShopForThisFile } from './support/own-shop'
import { shoot } from './support/screens'
import { adminLogin } from './support/shop'
import { expect, test } from './support/test'

// Discount codes and "E-mail me my orders", on a shop of this file's own (known admin password,
// its own outbox folder and devchain).
const PASSWORD = 'e2e-discounts-password'
const BUYER = 'discount-buyer@example.com'

const shop = ownShopForThisFile({ ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: PASSWORD }, 'discounts')

test('the admin adds a code; a buyer applies it at checkout and pays the discounted total', async ({
  page,
}) => {
  await adminLogin(page, PASSWORD)
  await page.getByRole('link', { name: 'Discounts' }).click()
  await expect(page).toHaveURL(/\/admin\/discounts$/)
  await page.getByRole('button', { name: 'Add Discount Code' }).click()
  await expect(page.getByText('Code must be at least 3 characters')).toBeVisible()
  await page.getByLabel('Code', { exact: true }).fill('Launch20')
  await page.getByLabel('Percent off').fill('20')
  await page.getByLabel('Total uses').fill('100')
  await page.getByRole('button', { name: 'Add Discount Code' }).click()
  const codes = page.getByRole('list', { name: 'Discount codes' })
  await expect(codes.getByText('Launch20')).toBeVisible()
  await expect(codes.getByText('20 % off')).toBeVisible()
  // The toast is loaded and shown after the save: wait for it to come and go before the screenshot.
  const added = page.getByText('Discount code Launch20 added')
  await expect(added).toBeVisible()
  await expect(added).toBeHidden()
  await page.evaluate(() => window.scrollTo(0, 0))
  await shoot(page, 'admin-discounts')

  // The buyer: a wrong code is refused with its reason, the right one (any case) lowers the total.
  await page.goto('/')
  const cards = page.getByRole('article').filter({ has: page.getByRole('button', { name: 'Add to Cart' }) })
  await cards.first().getByRole('button', { name: 'Add to Cart' }).click()
  await page.goto('/checkout')
  const total = page.getByTestId('checkout-total')
  const before = Number((await total.textContent())?.replace('$', ''))
  await page.getByRole('textbox', { name: 'Discount code' }).fill('nope-code')
  await page.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'This discount code does not exist' })).toBeVisible()
  await page.getByRole('textbox', { name: 'Discount code' }).fill('launch20')
  await page.getByRole('button', { name: 'Apply' }).click()
  const discountCents = Math.floor(Math.round(before * 100) / 5)
  const afterCents = Math.round(before * 100) - discountCents
  await expect(page.getByTestId('checkout-discount')).toHaveText(`−$${(discountCents / 100).toFixed(2)}`)
  await expect(total).toHaveText(`$${(afterCents / 100).toFixed(2)}`)
  await page.getByLabel('Email address').fill(BUYER)
  await shoot(page, 'checkout-discount')
  await page.getByRole('button', { name: 'Continue to Payment' }).click()
  await expect(page).toHaveURL(/\/payment$/)
  const amount = (await page.getByTestId('pay-amount').textContent())?.replace('$', '') ?? ''
  expect(amount).toBe((afterCents / 100).toFixed(2))
  const address = await page.getByLabel('Wallet address', { exact: true }).inputValue()
  const sent = await page.request.post(`${shop.devchainUrl}/_sim/transfers`, {
    data: { to: address, amount, from: buyerWallet() },
  })
  expect(sent.ok()).toBe(true)
  expect((await page.request.post(`${shop.devchainUrl}/_sim/mine`, { data: { blocks: 20 } })).ok()).toBe(true)
  await expect(page.getByRole('dialog', { name: 'Payment Successful' })).toBeVisible({ timeout: 15_000 })

  // The order e-mail shows the discount; the admin's list counts the use and the revenue.
  const mail = await mailTo(shop.outbox, BUYER, /licence keys/)
  expect(mail.text).toContain(`Discount (Launch20): −$${(discountCents / 100).toFixed(2)}`)
  await page.goto('/admin/discounts')
  const row = page.getByRole('listitem').filter({ hasText: 'Launch20' })
  await expect(row.getByText('1 / 100')).toBeVisible()
  await expect(row.getByText(`$${(afterCents / 100).toFixed(2)}`)).toBeVisible()
})

test('a buyer who lost their links gets their orders by e-mail, once', async ({ page }) => {
  // From the dashboard's Link not found page.
  await page.goto('/dashboard/not-a-real-link')
  await expect(page.getByRole('heading', { name: 'Link not found' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'E-mail me my orders' })).toBeVisible()
  await shoot(page, 'dashboard-not-found-email-orders')

  // From the support page: the same neutral answer for any address.
  await page.goto('/support')
  const form = page.getByRole('region', { name: 'E-mail me my orders' })
  await form.getByLabel('E-mail address').fill('nobody-here@example.com')
  await form.getByRole('button', { name: 'Send me a link' }).click()
  const neutral = /If this address has paid orders, we have e-mailed it a link/
  await expect(form.getByRole('status')).toHaveText(neutral)
  await page.reload()
  await form.getByLabel('E-mail address').fill(BUYER)
  await form.getByRole('button', { name: 'Send me a link' }).click()
  await expect(form.getByRole('status')).toHaveText(neutral)
  await page.evaluate(() => window.scrollTo(0, 0))
  await shoot(page, 'support-email-orders')

  const mail = await mailTo(shop.outbox, BUYER, /orders$/)
  const link = /http:\/\/127\.0\.0\.1:\d+\/orders\/[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')?.[0] as string
  expect(link).toBeTruthy()
  await page.goto(new URL(link).pathname)
  await expect(page.getByRole('heading', { name: 'Your orders' })).toBeVisible()
  const orders = page.getByRole('list', { name: 'Your paid orders' })
  await expect(orders.getByRole('listitem').filter({ hasText: 'discount' })).toHaveCount(1)
  await shoot(page, 'my-orders')
  await orders
    .getByRole('link', { name: /Open the dashboard of order/ })
    .first()
    .click()
  await expect(page).toHaveURL(/\/dashboard\/[A-Za-z0-9_-]{32}$/)
  const receipt = page.getByRole('region', { name: 'Receipt' })
  await expect(receipt.getByText('Launch20')).toBeVisible()
  await shoot(page, 'dashboard-discount')

  // Used once: opening it again says so, and offers a new one.
  await page.goto(new URL(link).pathname)
  await expect(page.getByRole('heading', { name: 'Link not valid' })).toBeVisible()
  await expect(page.getByText('This link has expired or was already used.')).toBeVisible()
})
