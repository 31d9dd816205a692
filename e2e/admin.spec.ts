import { ownShopForThisFile } from './support/own-shop'
import { shoot } from './support/screens'
import { expect, type Page, test } from './support/test'

// The admin spec runs its own shop (fresh database, known admin password) so changing the
// credentials or the content never disturbs the other specs.
const PASSWORD = 'e2e-admin-password'
const NEW_PASSWORD = 'e2e-new-password'
// Two real TRON addresses (base58check).
const WALLETS = ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7']

const shop = ownShopForThisFile(
  {
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD: PASSWORD,
    // Playwright's Desktop Chrome is allowed; the restricted test uses another browser's identity.
    ADMIN_ALLOWED_USER_AGENTS: 'Chrome/||Edg/',
  },
  'admin',
)

async function login(page: Page, username = 'admin', password = PASSWORD) {
  await page.goto('/admin/login')
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Login' }).click()
  await expect(page).toHaveURL(/\/admin$/)
}

async function placeOrder(page: Page, email: string) {
  const res = await page.request.post('/rpc/secure_create_order', {
    data: { p_email: email, p_items: [{ product: { id: 1 }, quantity: 1 }], p_total: 49.99 },
  })
  const body = await res.json()
  expect(body.success).toBe(true)
  return body.order_id as string
}

test('a browser outside the allow-list sees Access Restricted', async ({ browser }) => {
  const context = await browser.newContext({
    baseURL: shop.url,
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  })
  const page = await context.newPage()
  await page.goto('/admin/login')
  await expect(
    page.getByText('Access Restricted - This admin panel is only accessible from authorized devices.'),
  ).toBeVisible()
  await expect(page.getByText('Access denied', { exact: true })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Login' })).toHaveCount(0)
  await context.close()
})

test('login, orders: refresh, search, status change and bulk delete', async ({ page }) => {
  await page.goto('/admin')
  await expect(page).toHaveURL(/\/admin\/login$/)
  // Never logged in: sent to the login page without the session-expired toast.
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible()
  await expect(page.getByText('Session expired. Please login again.')).toHaveCount(0)
  // No public header or footer on admin paths.
  await expect(page.getByRole('link', { name: /^Cart/ })).toHaveCount(0)
  await expect(page.getByRole('contentinfo')).toHaveCount(0)
  await shoot(page, 'admin-login')

  await page.getByLabel('Username').fill('admin')
  await page.getByLabel('Password').fill('wrong-password')
  await page.getByRole('button', { name: 'Login' }).click()
  await expect(page.getByText('Invalid credentials')).toBeVisible()

  await login(page)
  await expect(page.getByText('ADMIN PANEL')).toBeVisible()
  await expect(page.getByText('No orders found')).toBeVisible()

  // A new order shows within 5 s without a reload.
  const first = await placeOrder(page, 'first.buyer@example.com')
  const second = await placeOrder(page, 'Second.Buyer@example.com')
  const firstRow = page.getByRole('row').filter({ hasText: 'first.buyer@example.com' })
  await expect(firstRow).toBeVisible({ timeout: 6_000 })
  await expect(page.getByRole('row').filter({ hasText: 'Second.Buyer@example.com' })).toBeVisible()
  await expect(firstRow.getByText(/^[A-Z][a-z]{2} \d{1,2}, \d{4} \d{2}:\d{2}$/)).toBeVisible()
  await shoot(page, 'admin-orders')

  await page.getByRole('searchbox', { name: 'Search orders' }).fill('SECOND.buyer')
  await expect(page.getByRole('row').filter({ hasText: 'first.buyer@example.com' })).toHaveCount(0)
  await page.getByRole('searchbox', { name: 'Search orders' }).fill('')
  await expect(firstRow).toBeVisible()

  await firstRow.getByRole('combobox', { name: `Status of order ${first}` }).selectOption('completed')
  await expect(page.getByText('Order status updated successfully')).toBeVisible()
  await page.getByRole('combobox', { name: 'Filter by status' }).selectOption('completed')
  await expect(page.getByRole('row').filter({ hasText: 'Second.Buyer@example.com' })).toHaveCount(0)
  await expect(firstRow).toBeVisible()
  await page.getByRole('combobox', { name: 'Filter by status' }).selectOption('all')

  // Order detail.
  await firstRow.getByRole('button', { name: first.slice(0, 8) }).click()
  const detail = page.getByRole('dialog', { name: 'Order details' })
  await expect(detail.getByText(first)).toBeVisible()
  await shoot(page, 'admin-order-detail')
  await detail.getByRole('button', { name: 'Close' }).click()

  await page.getByRole('checkbox', { name: `Select order ${first}` }).check()
  await page.getByRole('checkbox', { name: `Select order ${second}` }).check()
  await page.getByRole('button', { name: 'Delete selected (2)' }).click()
  await page.getByRole('dialog', { name: 'Delete orders' }).getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('2 order(s) deleted successfully')).toBeVisible()
  await expect(page.getByText('No orders found')).toBeVisible()
})

test('products: add, edit and delete, each seen on the storefront; markup stays text', async ({ page }) => {
  await login(page)
  await page.getByRole('link', { name: 'Products' }).first().click()
  await expect(page).toHaveURL(/\/admin\/products$/)
  await page.getByRole('button', { name: 'Add Product' }).click()
  const name = '<script>window.__x=1</script> E2E Tool'
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Image URL').fill('/images/products/lte-rotator.svg')
  await page.getByLabel('Description', { exact: true }).fill('Made by the <b>admin</b> spec')
  await page.getByLabel('Price (USD)').fill('19.99')
  await page
    .getByLabel('Features (one per line)', { exact: true })
    .fill('First feature\n\n<img src=x onerror=alert(1)>')
  await page.getByLabel('Add licence keys (one per line)').fill('E2E-KEY-1\nE2E-KEY-2\nE2E-KEY-1')
  // Free needs a download URL.
  await page.getByLabel('Free Product').check()
  await expect(page.getByLabel('Price (USD)')).toBeDisabled()
  await page.getByRole('button', { name: 'Add Product' }).click()
  await expect(page.getByText('Download URL is required for free products').first()).toBeVisible()
  await page.getByLabel('Free Product').uncheck()
  await shoot(page, 'admin-product-form')
  await page.getByRole('button', { name: 'Add Product' }).click()
  await expect(page.getByText('Product added successfully')).toBeVisible()
  const item = page.getByRole('listitem').filter({ hasText: name })
  await expect(item).toContainText('2 key(s) left')
  await shoot(page, 'admin-products')

  const shopPage = await page.context().newPage()
  const dialogs: string[] = []
  shopPage.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  await shopPage.goto('/')
  await expect(shopPage.getByRole('heading', { name })).toBeVisible()
  const card = shopPage.getByRole('article').filter({ hasText: 'E2E Tool' })
  await expect(card).toContainText('Made by the <b>admin</b> spec')
  await expect(card).toContainText('<img src=x onerror=alert(1)>')
  expect(await shopPage.evaluate(() => (window as unknown as { __x?: number }).__x)).toBeUndefined()
  expect(dialogs).toEqual([])
  // The panel shows the same markup as text.
  await expect(item).toContainText('Made by the <b>admin</b> spec')

  await item.getByRole('button', { name: `Edit ${name}` }).click()
  await page.getByLabel('Price (USD)').fill('24.50')
  await page.getByRole('button', { name: 'Update Product' }).click()
  await expect(page.getByText('Product updated successfully')).toBeVisible()
  await shopPage.reload()
  await expect(shopPage.getByRole('article').filter({ hasText: 'E2E Tool' })).toContainText('$24.50')

  await item.getByRole('button', { name: `Delete ${name}` }).click()
  await page.getByRole('dialog', { name: 'Delete product' }).getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('Product deleted successfully')).toBeVisible()
  await shopPage.reload()
  await expect(shopPage.getByRole('article').first()).toBeVisible()
  await expect(shopPage.getByRole('heading', { name })).toHaveCount(0)
})

test('wallets: a bad line refuses the batch, good lines are added and removed', async ({ page }) => {
  await login(page)
  await page.goto('/admin/wallets')
  const box = page.getByRole('textbox', { name: 'Wallet addresses, one per line' })
  await page.getByRole('button', { name: 'Add Addresses' }).click()
  // Said at the text box (tied to it) and in a toast.
  await expect(page.getByText('Please enter at least one wallet address').first()).toBeVisible()
  await expect(box).toHaveAttribute('aria-invalid', 'true')
  await box.fill(`${WALLETS[0]}\nnot-an-address\n`)
  await page.getByRole('button', { name: 'Add Addresses' }).click()
  await expect(page.getByText('Invalid wallet address format: not-an-address').first()).toBeVisible()
  await expect(page.getByText(WALLETS[0]!, { exact: true })).toHaveCount(0)

  await box.fill(`  ${WALLETS[0]}\n\n${WALLETS[1]}  `)
  await page.getByRole('button', { name: 'Add Addresses' }).click()
  await expect(page.getByText('Added 2 wallet address(es)')).toBeVisible()
  await expect(page.getByText(WALLETS[0]!, { exact: true })).toBeVisible()
  await shoot(page, 'admin-wallets')

  await page.getByRole('button', { name: `Delete ${WALLETS[0]}` }).click()
  await page
    .getByRole('dialog', { name: 'Delete wallet addresses' })
    .getByRole('button', { name: 'Delete' })
    .click()
  await expect(page.getByText('Wallet address removed')).toBeVisible()
  await expect(page.getByText(WALLETS[0]!, { exact: true })).toHaveCount(0)
})

test('content: the hero title changes the storefront', async ({ page }) => {
  await login(page)
  await page.goto('/admin/content')
  const title = '<em>Fresh</em> hero from the admin'
  await page.getByLabel('Hero title', { exact: true }).fill(title)
  await expect(page.getByLabel('Support e-mail')).toHaveAttribute('type', 'email')
  await shoot(page, 'admin-content')
  const section = '<script>window.__y=1</script> Night desk'
  await page.getByLabel('Section 1 title', { exact: true }).fill(section)
  await page.getByRole('button', { name: 'Save Content' }).click()
  await expect(page.getByText('Content updated successfully')).toBeVisible()
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
  await page.goto('/support')
  await expect(page.getByRole('heading', { name: section })).toBeVisible()
  expect(await page.evaluate(() => (window as unknown as { __y?: number }).__y)).toBeUndefined()
  // The admin shows it back as text too.
  await page.goto('/admin/content')
  await expect(page.getByLabel('Section 1 title', { exact: true })).toHaveValue(section)
})

test('security: change the credentials, log in with the new ones, log out', async ({ page }) => {
  await login(page)
  await page.goto('/admin/security')
  await page.getByLabel('Current Password').fill(PASSWORD)
  await page.getByLabel('New Username').fill('boss')
  await page.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD)
  await page.getByLabel('Confirm New Password').fill(`${NEW_PASSWORD}x`)
  await page.getByRole('button', { name: 'Update Credentials' }).click()
  // Said at the field (tied to it) and in a toast.
  await expect(page.getByText('New passwords do not match').first()).toBeVisible()
  await expect(page.getByLabel('Confirm New Password')).toHaveAttribute('aria-invalid', 'true')
  await page.getByLabel('Confirm New Password').fill(NEW_PASSWORD)
  await page.getByLabel('Current Password').fill('not-the-password')
  await page.getByRole('button', { name: 'Update Credentials' }).click()
  await expect(page.getByText('Current password is incorrect')).toBeVisible()
  await page.getByLabel('Current Password').fill(PASSWORD)
  await shoot(page, 'admin-security')
  await page.getByRole('button', { name: 'Update Credentials' }).click()
  await expect(page.getByText('Credentials updated successfully')).toBeVisible()

  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/admin\/login$/)
  await page.goto('/admin/products')
  await expect(page).toHaveURL(/\/admin\/login$/)
  await login(page, 'boss', NEW_PASSWORD)
  // The tab menu collapses behind a toggle on small screens.
  await page.setViewportSize({ width: 375, height: 812 })
  await expect(page.getByRole('navigation', { name: 'Admin', exact: true })).toBeHidden()
  await page.getByRole('button', { name: 'Open menu' }).click()
  const menu = page.getByRole('navigation', { name: 'Admin mobile' })
  await expect(menu.getByRole('link', { name: 'Security' })).toBeVisible()
  await page.screenshot({ path: 'screenshots/admin-menu-375.png' })
  await menu.getByRole('link', { name: 'Wallets' }).click()
  await expect(page).toHaveURL(/\/admin\/wallets$/)
  await expect(menu).toBeHidden()
  await page.setViewportSize({ width: 1280, height: 720 })

  // A session ended on the server: the next call is 401, and the panel says so.
  await page.context().clearCookies()
  await page
    .getByRole('navigation', { name: 'Admin', exact: true })
    .getByRole('link', { name: 'Products' })
    .click()
  await expect(page.getByText('Session expired. Please login again.')).toBeVisible()
  await expect(page).toHaveURL(/\/admin\/login$/)
})
