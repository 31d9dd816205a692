import { createServer, type Server } from 'node:http'
import { buyerWallet } from './support/buyer-wallet'
import { ownShopForThisFile } from './support/own-shop'
import { shoot } from './support/screens'
import { adminLogin } from './support/shop'
import { expect, type Page, test } from './support/test'

// A seller's own site sends its buyer to pay on the shop: its small page posts to its own tiny
// server, which holds the API key and creates the invoice at the shop (Greenfield's call), then
// sends the buyer to the invoice's checkoutLink. The buyer pays on the devchain, sees Payment
// confirmed and lands back on the seller's page. Its own shop: a known password for the key.

const PASSWORD = 'e2e-invoice-page-password'
const shop = ownShopForThisFile({ ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: PASSWORD }, 'invoice-hosted')

let apiKey = ''
let storeId = ''

async function createInvoice(body: Record<string, unknown>): Promise<{ id: string; checkoutLink: string }> {
  const response = await fetch(`${shop.url}/api/v1/stores/${storeId}/invoices`, {
    method: 'POST',
    headers: { authorization: `token ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (response.status !== 200) throw new Error(`invoice refused: ${await response.text()}`)
  return (await response.json()) as { id: string; checkoutLink: string }
}

/** The seller's site: a page with a Pay button, the server behind it, and a thank-you page. */
function sellerSite(): Promise<{ url: string; server: Server }> {
  let url = ''
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    if (req.method === 'GET' && path === '/') {
      res.setHeader('content-type', 'text/html; charset=utf-8')
      res.end(`<!doctype html><html lang="en"><head><title>Seller's shop</title></head><body>
<h1>Seller's shop</h1><p>Pro licence: $9.99</p>
<form method="post" action="/pay"><button type="submit">Pay with USDT</button></form></body></html>`)
    } else if (req.method === 'POST' && path === '/pay') {
      createInvoice({
        amount: '9.99',
        currency: 'USD',
        metadata: { orderId: 'seller-1042', itemDesc: 'Pro licence' },
        checkout: { redirectURL: `${url}/thanks?order={OrderId}`, redirectAutomatically: true },
      }).then(
        (invoice) => {
          res.statusCode = 303
          res.setHeader('location', invoice.checkoutLink)
          res.end()
        },
        (error: Error) => {
          res.statusCode = 502
          res.end(error.message)
        },
      )
    } else if (req.method === 'GET' && path === '/thanks') {
      const order = new URL(req.url ?? '/', url).searchParams.get('order') ?? ''
      res.setHeader('content-type', 'text/html; charset=utf-8')
      res.end(`<!doctype html><html lang="en"><head><title>Thank you</title></head><body>
<h1>Thank you</h1><p>Order ${order.replace(/[^\w-]/g, '')} is paid.</p></body></html>`)
    } else {
      res.statusCode = 404
      res.end()
    }
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
      resolve({ url, server })
    }),
  )
}

/** Sends the amount from a fresh wallet and mines enough blocks on top for the chain to solidify it. */
async function pay(page: Page, to: string, amount: string) {
  const sent = await page.request.post(`${shop.devchainUrl}/_sim/transfers`, {
    data: { from: buyerWallet(), to, amount, token: 'USDT' },
  })
  expect(sent.ok()).toBe(true)
  const mined = await page.request.post(`${shop.devchainUrl}/_sim/mine`, { data: { blocks: 20 } })
  expect(mined.ok()).toBe(true)
}

test('the operator makes a key for the seller site', async ({ page }) => {
  await adminLogin(page, PASSWORD)
  await page.goto('/admin/api-keys')
  storeId = await page.getByRole('textbox', { name: 'Store id' }).inputValue()
  await page.getByLabel('Label').fill('Seller site')
  await page.getByLabel('Your current password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Create key' }).click()
  apiKey = await page.getByRole('textbox', { name: 'API key' }).inputValue()
  expect(apiKey).toMatch(/^sc_/)
  expect(storeId).toMatch(/^[0-9a-f]{32}$/)
})

test("a seller's page sends the buyer to the hosted page, who pays and lands back on the seller's page", async ({
  browser,
}) => {
  const seller = await sellerSite()
  // The buyer's own browser, starting on the seller's site (not the shop's app: no hydration to wait for there).
  const context = await browser.newContext()
  const page = await context.newPage()
  // Nothing goes wrong on the way: no uncaught error, no console error (React's hydration errors are logged there).
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`))
  page.on('console', (message) => {
    // The seller's tiny site has no favicon: only the shop's pages count here.
    if (message.type() === 'error' && message.location().url.startsWith(shop.url))
      errors.push(`console: ${message.text()} (${message.location().url})`)
  })
  try {
    await page.goto(seller.url)
    await page.getByRole('button', { name: 'Pay with USDT' }).click()

    // The shop's payment page, with the invoice's order: address, QR, exact amount; no Cancel.
    await expect(page).toHaveURL(new RegExp(`^${shop.url}/invoice/[A-Za-z0-9_-]{22}$`))
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
    await expect(page.getByRole('heading', { name: 'Complete Your Payment' })).toBeVisible()
    const address = await page.getByLabel('Wallet address', { exact: true }).inputValue()
    expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/)
    await expect(page.getByTestId('wallet-qr')).toBeVisible()
    await expect(page.getByTestId('pay-amount')).toHaveText('$9.99')
    await expect(page.getByText('For: Pro licence')).toBeVisible()
    await expect(page.getByRole('button', { name: /Cancel/ })).toHaveCount(0)

    await pay(page, address, '9.99')
    await expect(page.getByRole('heading', { name: 'Payment confirmed' })).toBeVisible({ timeout: 20_000 })
    await expect(page.getByText('Taking you back to 127.0.0.1…')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Back to 127.0.0.1' })).toHaveAttribute(
      'href',
      `${seller.url}/thanks?order=seller-1042`,
    )
    // redirectAutomatically: back on the seller's page by itself.
    await expect(page).toHaveURL(`${seller.url}/thanks?order=seller-1042`, { timeout: 10_000 })
    await expect(page.getByText('Order seller-1042 is paid.')).toBeVisible()
    expect(errors).toEqual([])
  } finally {
    await context.close()
    seller.server.close()
  }
})

test('the hosted page in English, Chinese and Russian, waiting and paid; an unknown link is a 404 page', async ({
  page,
}) => {
  const words = {
    en: {
      language: 'en-US',
      title: 'Complete Your Payment',
      paid: 'Payment confirmed',
      back: 'Back to seller.example',
    },
    zh: { language: 'zh-CN', title: '完成付款', paid: '付款已确认', back: '返回 seller.example' },
    ru: {
      language: 'ru-RU',
      title: 'Завершите оплату',
      paid: 'Оплата подтверждена',
      back: 'Вернуться на seller.example',
    },
  }
  for (const [locale, w] of Object.entries(words)) {
    const invoice = await createInvoice({
      amount: '9.99',
      metadata: { orderId: `shots-${locale}` },
      checkout: { redirectURL: 'https://seller.example/thanks', defaultLanguage: w.language },
    })
    await page.goto(invoice.checkoutLink)
    await expect(page.getByRole('heading', { name: w.title })).toBeVisible()
    await expect(page.locator('html')).toHaveAttribute('lang', locale === 'zh' ? 'zh-CN' : locale)
    await shoot(page, `invoice-waiting-${locale}`)
    const address = await page.getByRole('textbox').first().inputValue()
    expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/)
    await pay(page, address, '9.99')
    await expect(page.getByRole('heading', { name: w.paid })).toBeVisible({ timeout: 20_000 })
    await expect(page.getByRole('link', { name: w.back })).toBeVisible()
    await shoot(page, `invoice-paid-${locale}`)
  }

  const unknown = await page.goto('/invoice/AAAAAAAAAAAAAAAAAAAAAA')
  expect(unknown?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'Payment page not found' })).toBeVisible()
})
