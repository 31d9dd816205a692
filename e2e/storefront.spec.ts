import { shoot } from './support/screens'
import { expect, test } from './support/test'

test.describe('storefront', () => {
  test('listing: search, filter, sort, modal and cart badge', async ({ page }) => {
    await page.goto('/')
    await expect(page).toHaveTitle('Stablecart — Mobile Proxy Software')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Mobile proxy software, delivered instantly',
    )
    const cards = page.getByRole('article')
    await expect(cards.first()).toBeVisible()
    const total = await cards.count()
    expect(total).toBeGreaterThanOrEqual(6)
    await shoot(page, 'listing')

    // View Products jumps to the #products anchor.
    await page.getByRole('link', { name: 'View Products' }).click()
    await expect(page).toHaveURL(/#products$/)

    // Case-insensitive search over name and description.
    const search = page.getByRole('searchbox', { name: 'Search products' })
    await search.fill('ROTATION')
    await expect(cards).toHaveCount(await countMatching(page, 'rotation'))
    await search.fill('zzz-no-such-thing')
    await expect(page.getByText('No products found matching your criteria.')).toBeVisible()
    await search.fill('')

    // Free filter: every card is free.
    await page.getByRole('combobox', { name: 'Filter products' }).selectOption({ label: 'Free' })
    await expect(cards.first()).toBeVisible()
    for (const price of await cards.locator('text=/^(Free|\\$[\\d.]+)$/').allTextContents()) {
      expect(price).toBe('Free')
    }
    await page.getByRole('combobox', { name: 'Filter products' }).selectOption({ label: 'Paid' })
    await expect(cards.getByText('Free', { exact: true })).toHaveCount(0)
    await page.getByRole('combobox', { name: 'Filter products' }).selectOption({ label: 'All Products' })

    const sort = page.getByRole('combobox', { name: 'Sort products' })
    await sort.selectOption({ label: 'Price: Low to High' })
    const asc = await prices(page)
    expect(asc).toEqual([...asc].sort((a, b) => a - b))
    await sort.selectOption({ label: 'Price: High to Low' })
    const desc = await prices(page)
    expect(desc).toEqual([...asc].sort((a, b) => b - a))

    // A card's modal shows the features with their count, and closes after Add to Cart.
    await sort.selectOption({ label: 'Sort by: Featured' })
    const first = cards.first()
    const name = await first.getByRole('heading').textContent()
    await first.getByRole('button', { name: `View details of ${name}` }).click()
    const dialog = page.getByRole('dialog', { name: name ?? '' })
    await expect(dialog).toBeVisible()
    await expect(dialog.getByText(/Premium Features \(\d+\)/)).toBeVisible()
    await shoot(page, 'product-modal')
    await expect(page.getByTestId('cart-badge')).toHaveCount(0)
    await dialog.getByRole('button', { name: 'Add to Cart' }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByTestId('cart-badge')).toHaveText('1')

    // Adding the same product again keeps one distinct line; another product makes two.
    await first.getByRole('button', { name: 'Add to Cart' }).click()
    await expect(page.getByTestId('cart-badge')).toHaveText('1')
    await cards.nth(1).getByRole('button', { name: 'Add to Cart' }).click()
    await expect(page.getByTestId('cart-badge')).toHaveText('2')
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('cart-items') ?? '[]'))
    expect(stored).toHaveLength(2)
    expect(stored[0]).toMatchObject({ product: { name }, quantity: 2 })
  })

  test('a free product with a download URL opens it in a new tab', async ({ page, context }) => {
    await page.goto('/')
    await page.getByRole('combobox', { name: 'Filter products' }).selectOption({ label: 'Free' })
    const card = page.getByRole('article').first()
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      card.getByRole('button', { name: 'Download' }).click(),
    ])
    await popup.waitForLoadState()
    expect(popup.url()).toMatch(/\/downloads\//)
    await expect(page.getByTestId('cart-badge')).toHaveCount(0)
  })

  test('the catalogue pages are readable before any script runs', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Mobile proxy software, delivered instantly',
    )
    await expect(page.getByRole('article')).not.toHaveCount(0)
    await page.goto('/product/1')
    const name = await page.getByRole('heading', { level: 1 }).textContent()
    expect(name?.length).toBeGreaterThan(0)
    await expect(page).toHaveTitle(`${name} — Stablecart — Mobile Proxy Software`)
    await expect(page.getByRole('button', { name: /Add to Cart|Download/ })).toBeVisible()
    await context.close()
  })

  test('what a buyer types or picks before the page is interactive is kept', async ({ browser }) => {
    // The scripts are held back so the search, the sort and the language are changed on the page
    // the server rendered, as on a slow phone; then they are let through.
    const context = await browser.newContext({ baseURL: test.info().project.use.baseURL })
    const page = await context.newPage()
    const release = await holdScripts(page)
    await page.goto('/', { waitUntil: 'commit' })
    const search = page.getByRole('searchbox', { name: 'Search products' })
    await search.fill('ROTATION')
    await page.getByRole('combobox', { name: 'Sort products' }).selectOption({ label: 'Price: High to Low' })
    expect(await page.locator('html[data-hydrated]').count()).toBe(0)
    release()
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
    await expect(page.getByRole('article')).toHaveCount(await countMatching(page, 'rotation'))
    await expect(search).toHaveValue('ROTATION')
    const shown = await prices(page)
    expect(shown).toEqual([...shown].sort((a, b) => b - a))

    await context.clearCookies()
    const letGo = await holdScripts(page)
    await page.goto('/', { waitUntil: 'commit' })
    await page.getByRole('combobox', { name: 'Language' }).first().selectOption('ru')
    expect(await page.locator('html[data-hydrated]').count()).toBe(0)
    letGo()
    await expect(page.getByRole('link', { name: 'Смотреть товары' })).toBeVisible()
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ru')
    await context.close()
  })

  test('product page, unknown ids and unknown paths', async ({ page }) => {
    await page.goto('/product/1')
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Back to Products' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Secure Purchase' })).toBeVisible()
    await expect(page.getByText('USDT-TRC20/TRX accepted')).toBeVisible()
    await shoot(page, 'product-page')
    await page.getByRole('button', { name: 'Add to Cart' }).click()
    await expect(page.getByTestId('cart-badge')).toHaveText('1')

    for (const path of ['/product/999999', '/product/abc', '/product/1.5', '/no/such/path']) {
      await page.goto(path)
      await expect(page).toHaveURL(/\/$/)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        'Mobile proxy software, delivered instantly',
      )
    }
  })

  test('support page shows its sections with icons', async ({ page }) => {
    await page.goto('/support')
    await expect(page.getByRole('heading', { level: 1, name: 'How can we help?' })).toBeVisible()
    const sections = page.getByRole('article')
    await expect(sections).toHaveCount(4)
    for (const icon of ['mail', 'messageCircle', 'clock', 'shield']) {
      await expect(page.locator(`[data-icon="${icon}"] svg`)).toBeVisible()
    }
    await expect(sections.nth(0).getByRole('link', { name: 'support@stablecart.example' })).toBeVisible()
    await expect(sections.nth(1).getByText('Available 24/7')).toBeVisible()
    await expect(sections.nth(2).getByText('Usually within 2 hours')).toBeVisible()
    await expect(sections.nth(3).getByText('End-to-end encryption')).toBeVisible()
    await shoot(page, 'support')
  })

  test('keyboard and mobile menu', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 })
    await page.goto('/')
    const toggle = page.getByRole('button', { name: 'Open menu' })
    await expect(toggle).toBeVisible()
    await toggle.focus()
    await page.keyboard.press('Enter')
    const menu = page.getByRole('navigation', { name: 'Mobile' })
    await expect(menu).toBeVisible()
    await menu.getByRole('link', { name: 'Support' }).focus()
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/support$/)
    await expect(menu).toBeHidden()

    // A product card opens and closes with the keyboard alone.
    await page.goto('/')
    await page
      .getByRole('button', { name: /^View details of/ })
      .first()
      .focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('dialog')).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(page.getByRole('dialog')).toBeHidden()
  })
})

async function prices(page: import('@playwright/test').Page): Promise<number[]> {
  const texts = await page.getByRole('article').locator('text=/^(Free|\\$[\\d.]+)$/').allTextContents()
  return texts.map((t) => (t === 'Free' ? 0 : Number(t.slice(1))))
}

async function countMatching(page: import('@playwright/test').Page, needle: string): Promise<number> {
  const answer = await page.request.post('/rpc/fetch_products', { data: {} })
  const { products } = (await answer.json()) as { products: { name: string; description: string }[] }
  return products.filter((p) => `${p.name}\n${p.description}`.toLowerCase().includes(needle)).length
}

/** Holds the page's scripts back until the answered function is called. */
async function holdScripts(page: import('@playwright/test').Page): Promise<() => void> {
  let release = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.unrouteAll()
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    await held
    await route.continue()
  })
  return release
}
