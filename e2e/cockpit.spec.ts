import { readFileSync } from 'node:fs'
import { ownShopForThisFile } from './support/own-shop'
import { shoot } from './support/screens'
import { adminLogin } from './support/shop'
import { expect, type Page, test } from './support/test'

// The operator's cockpit in the browser: the sales dashboard and its chart at both widths, the CSV
// downloads, the audit tab, and a stock-only product selling out. Its own shop and database.
const PASSWORD = 'e2e-cockpit-password'

ownShopForThisFile({ ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: PASSWORD }, 'cockpit')

const login = (page: Page) => adminLogin(page, PASSWORD)

async function call(page: Page, name: string, data: Record<string, unknown> = {}) {
  const res = await page.request.post(`/rpc/${name}`, { data })
  expect(res.status(), `${name} answered ${res.status()}`).toBe(200)
  return res.json()
}

async function placeOrder(page: Page, email: string, productId = 1, price = 49.99) {
  const body = await call(page, 'secure_create_order', {
    p_email: email,
    p_items: [{ product: { id: productId }, quantity: 1 }],
    p_total: price,
  })
  expect(body.success).toBe(true)
  return body.order_id as string
}

test('the dashboard shows the figures and the chart at 1440 and 375 px', async ({ page }) => {
  await login(page)
  const paid = [await placeOrder(page, 'first@example.com'), await placeOrder(page, 'second@example.com')]
  await placeOrder(page, 'third@example.com')
  for (const id of paid) await call(page, 'secure_update_order_status', { p_order_id: id, p_status: 'paid' })

  await page.setViewportSize({ width: 1440, height: 900 })
  await page.getByRole('link', { name: 'Dashboard' }).click()
  await expect(page).toHaveURL(/\/admin\/dashboard$/)
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible()
  const today = page.getByRole('region', { name: 'Today' })
  await expect(today).toContainText('$99.98')
  await expect(today).toContainText('2 paid orders')
  await expect(page.getByText('Conversion, last 30 days:')).toContainText('66.7 %')
  await expect(page.getByText('Scanner lag')).toBeVisible()
  const chart = page.getByTestId('revenue-chart').locator('canvas')
  await expect(chart).toBeVisible()
  const wide = await chart.boundingBox()
  expect(wide?.width).toBeGreaterThan(900)
  await expect(page.getByRole('img', { name: /Revenue and paid orders per day/ })).toBeVisible()

  await page.setViewportSize({ width: 375, height: 812 })
  await expect(chart).toBeVisible()
  await expect.poll(async () => (await chart.boundingBox())?.width ?? 0).toBeLessThanOrEqual(375)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  await shoot(page, 'admin-dashboard')
})

test('the orders export downloads the filtered orders as CSV; payments export too', async ({ page }) => {
  await login(page)
  await page.getByLabel('Search orders').fill('second@')
  await expect(page.getByText('third@example.com').filter({ visible: true })).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', /search=second%40/)
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export CSV' }).click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/)
  const csv = readFileSync((await download.path()) as string, 'utf8')
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n')
  expect(lines[0]).toBe(
    'id,created_at,email,items,total_usd,status,paid_at,received_usdt,received_trx,transaction_ids,chain,token,late,overpaid,discount_code,discount_usd,refunded_usdt,refunded_trx,seller_order_id',
  )
  expect(lines).toHaveLength(2)
  expect(lines[1]).toContain('second@example.com')
  expect(lines[1]).toContain(',paid,')

  await page.goto('/admin/dashboard')
  const [payments] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Payments CSV' }).click(),
  ])
  expect(payments.suggestedFilename()).toMatch(/^payments-/)
  expect(readFileSync((await payments.path()) as string, 'utf8')).toContain('id,recorded_at,tx_id,token')
})

test('the audit tab lists who did what, filtered by action', async ({ page }) => {
  await login(page)
  await page.getByRole('link', { name: 'Audit' }).click()
  await expect(page).toHaveURL(/\/admin\/audit$/)
  const entries = page.getByRole('list', { name: 'Audit entries' })
  await expect(entries).toContainText('Order status changed')
  // From whatever the order was (a new checkout from the same browser cancels its earlier one) to paid.
  await expect(entries).toContainText(/(pending|cancelled) → paid/)
  await expect(entries).toContainText('Export')
  await expect(entries).toContainText('Login')
  await page.getByLabel('Filter by action').selectOption('export')
  await expect(entries.getByRole('listitem')).toHaveCount(2)
  await expect(entries).not.toContainText('Order status changed')
  await page.getByLabel('From').fill('2099-01-01T00:00')
  await expect(page.getByText('No entries')).toBeVisible()
  await page.getByLabel('From').fill('')
  await page.getByLabel('Filter by action').selectOption('')
  await shoot(page, 'admin-audit')
})

test('a stock-only product without free keys shows Sold out; a cart holding it is told so at checkout', async ({
  page,
}) => {
  const products = (await call(page, 'fetch_products')).products as {
    id: number
    name: string
    price: number
    is_free: boolean
  }[]
  const product = products.find((p) => !p.is_free && p.price > 0 && p.id !== 1) as {
    id: number
    name: string
    price: number
  }
  // Into the cart while it can still be bought.
  await page.goto('/')
  const card = page.getByRole('article').filter({ hasText: product.name })
  await card.getByRole('button', { name: 'Add to Cart' }).click()

  await login(page)
  await page.getByRole('link', { name: 'Stock' }).click()
  await page.getByLabel(`Delivery of ${product.name}`).selectOption('stock_only')
  await page.getByLabel(`Low-stock threshold of ${product.name}`).fill('2')
  await page
    .getByRole('listitem')
    .filter({ hasText: product.name })
    .getByRole('button', { name: 'Save' })
    .click()
  await expect(page.getByText(`${product.name}: stock settings saved`)).toBeVisible()

  await page.goto('/')
  await expect(card.getByRole('button', { name: 'Sold out' })).toBeDisabled()
  const refused = await page.request.post('/rpc/secure_create_order', {
    data: {
      p_email: 'late@example.com',
      p_items: [{ product: { id: product.id }, quantity: 1 }],
      p_total: product.price,
    },
  })
  expect(refused.status()).toBe(409)
  expect((await refused.json()).error).toBe(`${product.name} is sold out`)

  await page.goto('/checkout')
  await page.getByLabel('Email address').fill('buyer@example.com')
  await page.getByRole('button', { name: 'Continue to Payment' }).click()
  await expect(page.getByText(`${product.name} is sold out`)).toBeVisible()
  await expect(page).toHaveURL(/\/checkout$/)
})
