import { createServer } from 'node:http'
import type { Page } from '@playwright/test'
import { generateSync } from 'otplib'
import { ownShopForThisFile } from './support/own-shop'
import { shoot } from './support/screens'
import { expect, test } from './support/test'

// Its own shop (fresh database, known password), so switching two-factor login on never
// disturbs the other specs. Webhooks may reach this machine's receiver (WEBHOOK_ALLOW_PRIVATE).
const PASSWORD = 'e2e-2fa-password'

ownShopForThisFile(
  { ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: PASSWORD, WEBHOOK_ALLOW_PRIVATE: 'true' },
  'two-factor',
)

const codeAt = (secret: string, offsetSeconds = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds })

async function passwordStep(page: Page) {
  await page.goto('/admin/login')
  await page.getByLabel('Username').fill('admin')
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Login' }).click()
}

test('settings keep the bot token secret; a webhook shows its secret once and logs a delivery', async ({
  page,
}) => {
  const hits: string[] = []
  const receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => {
      body += c
    })
    req.on('end', () => {
      hits.push(body)
      res.end('received')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const address = receiver.address()
  const receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`
  try {
    await passwordStep(page)
    await expect(page).toHaveURL(/\/admin$/)

    await page.goto('/admin/settings')
    await page.getByLabel('Operator e-mail').fill('ops@example.com')
    await page.getByLabel('Telegram bot token').fill('123456:ABCdefGHIjklMNOpqrSTUvwxYZ')
    await page.getByLabel('Telegram chat id').fill('-100200300')
    await page.getByLabel('Order e-mails are failing').uncheck()
    await page.getByRole('button', { name: 'Save Settings' }).click()
    await expect(page.getByText('Settings saved')).toBeVisible()
    await page.reload()
    await expect(page.getByLabel('Operator e-mail')).toHaveValue('ops@example.com')
    await expect(page.getByLabel('Telegram bot token')).toHaveValue('')
    await expect(page.getByText('A token is saved')).toBeVisible()
    await expect(page.getByLabel('Order e-mails are failing')).not.toBeChecked()
    expect(await page.content()).not.toContain('ABCdefGHIjklMNOpqrSTUvwxYZ')
    await shoot(page, 'admin-settings')

    await page.goto('/admin/webhooks')
    await page.getByLabel('Endpoint URL').fill(receiverUrl)
    await page.getByLabel('order.created').check()
    await page.getByRole('button', { name: 'Add Webhook' }).click()
    const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue()
    expect(secret).toMatch(/^whsec_/)
    await page.getByRole('button', { name: 'Done' }).click()
    await expect(page.getByRole('textbox', { name: 'Signing secret' })).toHaveCount(0)

    const order = await page.request.post('/rpc/secure_create_order', {
      data: { p_email: 'buyer@example.com', p_items: [{ product: { id: 1 }, quantity: 1 }], p_total: 49.99 },
    })
    expect((await order.json()).success).toBe(true)
    await page.getByRole('button', { name: 'Deliveries' }).click()
    await expect(page.getByRole('cell', { name: 'delivered' })).toBeVisible({ timeout: 15_000 })
    expect(JSON.parse(hits[0] as string).type).toBe('order.created')
    await shoot(page, 'admin-webhooks')
    expect(await page.content()).not.toContain(secret)
  } finally {
    receiver.close()
  }
})

test('set up two-factor login from the Security tab, then log in with a code', async ({ page }) => {
  await passwordStep(page)
  await expect(page).toHaveURL(/\/admin$/)
  await page.goto('/admin/security')
  await page.getByRole('button', { name: 'Set Up Two-Factor Login' }).click()
  await expect(page.getByRole('img', { name: 'Two-factor setup QR code' })).toBeVisible()
  const secret = await page.getByRole('textbox', { name: 'Setup key' }).inputValue()
  expect(secret).toMatch(/^[A-Z2-7]{32}$/)
  await shoot(page, 'admin-two-factor-setup')

  // Switching on asks for the password: a wrong one is refused with a message and changes nothing.
  const setupForm = page
    .locator('form')
    .filter({ has: page.getByRole('button', { name: 'Confirm and Turn On' }) })
  await setupForm.getByLabel('Current Password').fill('not-the-password')
  await setupForm.getByLabel('Code from the app').fill(codeAt(secret))
  await page.getByRole('button', { name: 'Confirm and Turn On' }).click()
  await expect(page.getByText('Current password is incorrect')).toBeVisible()
  await shoot(page, 'admin-two-factor-wrong-password')
  await expect(page.getByRole('list', { name: 'Recovery codes' })).toHaveCount(0)

  await setupForm.getByLabel('Current Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Confirm and Turn On' }).click()
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')
  await expect(codes).toHaveCount(10)
  await expect(page.getByText('Two-factor login is on.')).toBeVisible()
  await page.getByRole('button', { name: 'I have saved them' }).click()
  await expect(page.getByRole('list', { name: 'Recovery codes' })).toHaveCount(0)

  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/admin\/login$/)

  // The password alone is not enough: the page asks for the code.
  await passwordStep(page)
  const codeField = page.getByLabel('Authentication Code')
  await expect(codeField).toBeVisible()
  await expect(page).toHaveURL(/\/admin\/login$/)
  await codeField.fill('000000')
  await page.getByRole('button', { name: 'Login' }).click()
  await expect(page.getByText('Invalid authentication code')).toBeVisible()
  await expect(page).toHaveURL(/\/admin\/login$/)
  await shoot(page, 'admin-login-code')

  // The next step's code (the setup spent this step's one).
  await codeField.fill(codeAt(secret, 30))
  await page.getByRole('button', { name: 'Login' }).click()
  await expect(page).toHaveURL(/\/admin$/)
})
