import { createServer } from 'node:http'
import { ownShopForThisFile } from './support/own-shop'
import { shoot } from './support/screens'
import { adminLogin } from './support/shop'
import { expect, test } from './support/test'

// The invoice API's webhooks in the admin: the operator registers a Greenfield webhook on the
// Webhooks tab, a seller's cart creates an invoice through the API, the operator sees its
// InvoiceCreated delivery in the log (with the invoice id and the receiver's HTTP code) and
// redelivers it; the local receiver gets the same body twice. Its own shop: a known password for
// the key, and webhooks may reach this machine's receiver.

const PASSWORD = 'e2e-invoice-webhooks-password'
const shop = ownShopForThisFile(
  { ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: PASSWORD, WEBHOOK_ALLOW_PRIVATE: 'true' },
  'invoice-webhooks',
)

test('an operator registers a Greenfield webhook, sees its delivery and redelivers it', async ({ page }) => {
  const hits: string[] = []
  const receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => {
      body += c
    })
    req.on('end', () => {
      hits.push(body)
      res.end('ok')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const address = receiver.address()
  const receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/btcpay`
  try {
    await adminLogin(page, PASSWORD)
    await page.goto('/admin/api-keys')
    const storeId = await page.getByRole('textbox', { name: 'Store id' }).inputValue()
    await page.getByLabel('Label').fill('Seller site')
    await page.getByLabel('Your current password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Create key' }).click()
    const apiKey = await page.getByRole('textbox', { name: 'API key' }).inputValue()

    await page.goto('/admin/webhooks')
    const greenfield = page
      .locator('section')
      .filter({ has: page.getByRole('heading', { name: 'Invoice API Webhooks (Greenfield)' }) })
    await greenfield.getByLabel('Greenfield webhook URL').fill(receiverUrl)
    // The events checklist (shared with the shop's own webhook form) asks for one event at least.
    const events = greenfield.getByRole('group', { name: 'Events' }).getByRole('checkbox')
    await expect(events).toHaveCount(6)
    for (const box of await events.all()) await box.uncheck()
    await greenfield.getByRole('button', { name: 'Register Greenfield Webhook' }).click()
    await expect(greenfield.getByRole('alert')).toHaveText('Choose at least one event')
    await expect(greenfield.getByLabel('InvoiceCreated')).toHaveAttribute('aria-invalid', 'true')
    for (const box of await events.all()) await box.check()
    await expect(greenfield.getByRole('alert')).toHaveCount(0)
    await greenfield.getByLabel('InvoiceReceivedPayment').uncheck()
    await greenfield.getByRole('button', { name: 'Register Greenfield Webhook' }).click()
    const secret = await greenfield.getByRole('textbox', { name: 'Signing secret' }).inputValue()
    expect(secret).toMatch(/^whsec_/)
    await greenfield.getByRole('button', { name: 'Done' }).click()
    await expect(greenfield.getByText(receiverUrl)).toBeVisible()
    await expect(greenfield.getByText(/^InvoiceCreated, InvoiceProcessing, InvoiceSettled/)).toBeVisible()
    await expect(greenfield.getByText('No deliveries yet.')).toBeVisible()

    const created = await fetch(`${shop.url}/api/v1/stores/${storeId}/invoices`, {
      method: 'POST',
      headers: { authorization: `token ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '9.99', currency: 'USD', metadata: { orderId: 'seller-77' } }),
    })
    expect(created.status).toBe(200)
    const invoiceId = ((await created.json()) as { id: string }).id
    await expect.poll(() => hits.length, { timeout: 15_000 }).toBe(1)

    // The list refreshes itself: the newest delivery's state, then its log.
    await expect(greenfield.getByText('Last delivery: delivered (HTTP 200)')).toBeVisible({ timeout: 15_000 })
    await greenfield.getByRole('button', { name: 'Deliveries' }).click()
    const row = greenfield.getByRole('row').filter({ hasText: invoiceId })
    await expect(row.getByRole('cell', { name: 'InvoiceCreated', exact: true })).toBeVisible()
    await expect(row.getByRole('cell', { name: 'delivered', exact: true })).toBeVisible()
    await expect(row.getByRole('cell', { name: '200 ok' })).toBeVisible()
    await shoot(page, 'admin-invoice-webhooks')

    await row.getByRole('button', { name: 'Redeliver InvoiceCreated' }).click()
    await expect(page.getByText('Queued again')).toBeVisible()
    await expect.poll(() => hits.length, { timeout: 15_000 }).toBe(2)
    expect(hits[1]).toBe(hits[0])
    expect(JSON.parse(hits[0] as string)).toMatchObject({ type: 'InvoiceCreated', invoiceId, storeId })
    expect(await page.content()).not.toContain(secret)

    // The same screen in the other languages, for the screenshots.
    for (const [lang, title, deliveries] of [
      ['zh', '账单 API Webhooks（Greenfield）', '投递记录'],
      ['ru', 'Вебхуки API счетов (Greenfield)', 'Доставки'],
    ] as const) {
      await page.context().addCookies([{ name: 'admin_lang', value: lang, url: shop.url }])
      await page.reload()
      const section = page.locator('section').filter({ has: page.getByRole('heading', { name: title }) })
      await section.getByRole('button', { name: deliveries }).click()
      await expect(section.getByRole('cell', { name: invoiceId })).toHaveCount(1)
      await shoot(page, `admin-invoice-webhooks-${lang}`)
    }
  } finally {
    receiver.close()
  }
})
