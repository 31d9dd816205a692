import { buyerWallet } from './support/buyer-wallet'
import { mailTo } from './support/outbox'
import { ownShopForThisFile } from './support/own-shop'
import { shoot } from './support/screens'
import { startCheckout } from './support/shop'
import { expect, type Page, test } from './support/test'

// Licences end to end, on a shop of its own (known admin password): the operator gives a product
// two seats per key, a buyer's software activates them, the buyer frees one from the dashboard,
// and the operator disables the key, which the next validate answers.
const PASSWORD = 'e2e-licence-password'
const EMAIL = 'licence-buyer@example.com'

const shop = ownShopForThisFile({ ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: PASSWORD }, 'licences')

let productName = ''
let key = ''
let dashboardLink = ''

async function login(page: Page) {
  await page.goto('/admin/login')
  await page.getByLabel('Username').fill('admin')
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Login' }).click()
  await expect(page).toHaveURL(/\/admin$/)
}

const licenceCall = async (page: Page, verb: string, form: Record<string, string>) => {
  const response = await page.request.post(`${shop.url}/v1/licenses/${verb}`, { form })
  return { status: response.status(), body: (await response.json()) as Record<string, unknown> }
}

test('the operator gives a product two seats per key on the Stock tab', async ({ page }) => {
  await page.goto('/')
  productName =
    (await page
      .getByRole('article')
      .filter({ has: page.getByRole('button', { name: 'Add to Cart' }) })
      .first()
      .getByRole('heading')
      .first()
      .textContent()) ?? ''
  expect(productName).not.toBe('')
  await login(page)
  await page.goto('/admin/stock')
  const limit = page.getByLabel(`Activations per key of ${productName}`)
  await limit.fill('2')
  await page.getByLabel(`Days a key of ${productName} stays valid`).fill('365')
  const row = page.getByRole('listitem').filter({ has: limit })
  await row.getByRole('button', { name: 'Save' }).click()
  await expect(
    page.getByText(`${productName}`).and(page.locator('[data-sonner-toast] *')).first(),
  ).toBeVisible()
  await page.reload()
  await expect(page.getByLabel(`Activations per key of ${productName}`)).toHaveValue('2')
  await shoot(page, 'licences-stock')
})

test('a buyer frees a seat from the dashboard and the software can activate again', async ({ page }) => {
  await startCheckout(page, EMAIL)
  await expect(page).toHaveURL(/\/payment$/)
  const address = await page.getByLabel('Wallet address', { exact: true }).inputValue()
  const amount = (await page.getByTestId('pay-amount').textContent())?.replace('$', '') ?? ''
  const paid = await page.request.post(`${shop.devchainUrl}/_sim/transfers`, {
    data: { to: address, amount, from: buyerWallet() },
  })
  expect(paid.ok()).toBe(true)
  expect((await page.request.post(`${shop.devchainUrl}/_sim/mine`, { data: { blocks: 20 } })).ok()).toBe(true)
  await expect(page.getByRole('dialog', { name: 'Payment Successful' })).toBeVisible({ timeout: 20_000 })
  const mail = await mailTo(shop.outbox, EMAIL)
  dashboardLink = /http:\/\/127\.0\.0\.1:\d+\/dashboard\/[A-Za-z0-9_-]{32}/.exec(mail.text ?? '')?.[0] ?? ''
  key = /Key: (\S+)/.exec(mail.text ?? '')?.[1] ?? ''
  expect(dashboardLink).not.toBe('')
  expect(key).not.toBe('')

  // The seller's software activates the key on two machines; a third is refused.
  const laptop = await licenceCall(page, 'activate', { license_key: key, instance_name: 'Work laptop' })
  expect(laptop.body).toMatchObject({ activated: true, license_key: { activation_limit: 2 } })
  await licenceCall(page, 'activate', { license_key: key, instance_name: 'Home desktop' })
  const third = await licenceCall(page, 'activate', { license_key: key, instance_name: 'Third' })
  expect(third).toMatchObject({
    status: 400,
    body: { error: 'This license key has reached the activation limit.' },
  })

  await page.goto(dashboardLink)
  await expect(page.getByRole('heading', { name: 'Your purchase' })).toBeVisible()
  await expect(page.getByText('Activations: 2 of 2')).toBeVisible()
  const devices = page.getByRole('list', { name: /^Devices using/ })
  await expect(devices.getByRole('listitem')).toHaveCount(2)
  await expect(devices.getByText('Work laptop')).toBeVisible()
  await shoot(page, 'licences-dashboard-before')
  await page.getByRole('button', { name: 'Deactivate Work laptop' }).click()
  await expect(page.getByText('Work laptop deactivated: the seat is free')).toBeVisible()
  await expect(page.getByText('Activations: 1 of 2')).toBeVisible()
  await expect(devices.getByRole('listitem')).toHaveCount(1)
  await expect(devices.getByText('Home desktop')).toBeVisible()
  await expect(devices.getByText('Work laptop')).toHaveCount(0)

  // The freed instance no longer validates; the seat is free for another machine.
  const instanceId = (laptop.body.instance as { id: string }).id
  const stale = await licenceCall(page, 'validate', { license_key: key, instance_id: instanceId })
  expect(stale).toMatchObject({ status: 404, body: { valid: false } })
  const again = await licenceCall(page, 'activate', { license_key: key, instance_name: 'New laptop' })
  expect(again.body).toMatchObject({ activated: true, license_key: { activation_usage: 2 } })
  // The e-mailed order-recovery link ("E-mail me my orders") reaches the same seats.
  const asked = await page.request.post(`${shop.url}/rpc/secure_request_order_links`, {
    data: { p_email: EMAIL },
  })
  expect((await asked.json()).success).toBe(true)
  const linksMail = await mailTo(shop.outbox, EMAIL, /orders$/)
  const recovery =
    /http:\/\/127\.0\.0\.1:\d+\/orders\/[A-Za-z0-9_-]{43}/.exec(linksMail.text ?? '')?.[0] ?? ''
  expect(recovery).not.toBe('')
  await page.goto(new URL(recovery).pathname)
  await page
    .getByRole('list', { name: 'Your paid orders' })
    .getByRole('link', { name: /Open the dashboard of order/ })
    .first()
    .click()
  await expect(page).toHaveURL(new URL(dashboardLink).pathname)
  await expect(page.getByText('Activations: 2 of 2')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Deactivate New laptop' })).toBeVisible()
  await shoot(page, 'licences-dashboard')
  for (const lang of ['zh', 'ru']) {
    await page.goto(`${dashboardLink}?lang=${lang}`)
    await expect(
      page.getByRole('list', { name: lang === 'zh' ? /^使用/ : /^Устройства с ключом/ }),
    ).toBeVisible()
    await shoot(page, `licences-dashboard-${lang}`)
  }
})

test('the operator disables the key in the Licences tab and the next validate answers disabled', async ({
  page,
}) => {
  expect(key).not.toBe('')
  await login(page)
  await page.goto('/admin/licences?lang=en')
  await page.getByLabel('Search licences').fill(EMAIL)
  await page.getByRole('button', { name: 'Find' }).click()
  const card = page.getByRole('listitem').filter({ hasText: key })
  await expect(card).toHaveCount(1)
  await expect(card.getByText('2 of 2 activations used')).toBeVisible()
  await expect(card.getByText('New laptop')).toBeVisible()
  await expect(card.getByText('Active', { exact: true })).toBeVisible()
  await shoot(page, 'licences-admin-before')
  await card.getByRole('button', { name: 'Disable' }).click()
  await expect(card.getByText('Disabled', { exact: true })).toBeVisible()
  await expect(card.getByRole('button', { name: 'Enable' })).toBeVisible()

  const validate = await licenceCall(page, 'validate', { license_key: key })
  expect(validate.body).toMatchObject({
    valid: false,
    error: 'This license key is disabled.',
    license_key: { status: 'disabled' },
    license_token: null,
  })
  await shoot(page, 'licences-admin')

  // The buyer's dashboard says so, in the buyer's words.
  await page.goto(dashboardLink)
  await expect(
    page.getByText('This licence is disabled. Contact support if this is unexpected.'),
  ).toBeVisible()

  for (const lang of ['zh', 'ru']) {
    await page.goto(`/admin/licences?lang=${lang}`)
    await page.getByRole('searchbox').or(page.getByRole('textbox')).first().fill(key)
    await page.keyboard.press('Enter')
    await expect(page.getByRole('listitem').filter({ hasText: key })).toHaveCount(1)
    await shoot(page, `licences-admin-${lang}`)
  }
  await page.goto('/admin/licences?lang=en')
})
