import { E2E_SHORT_WINDOW_PORT } from '../playwright.config'
import { shoot } from './support/screens'
import { expect, type Page, test } from './support/test'

const TRON_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/

async function addFirstTwoProducts(page: Page) {
  await page.goto('/')
  const cards = page.getByRole('article').filter({ has: page.getByRole('button', { name: 'Add to Cart' }) })
  await cards.nth(0).getByRole('button', { name: 'Add to Cart' }).click()
  await cards.nth(1).getByRole('button', { name: 'Add to Cart' }).click()
  await expect(page.getByTestId('cart-badge')).toHaveText('2')
  return [
    await cards.nth(0).getByRole('heading').textContent(),
    await cards.nth(1).getByRole('heading').textContent(),
  ]
}

function money(text: string | null): number {
  return Number((text ?? '').replace(/[^0-9.]/g, ''))
}

test.describe('cart, checkout and payment', () => {
  test('a buyer fills the cart, checks out, sees the payment page, reloads and cancels', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await page.goto('/cart')
    await expect(page.getByRole('heading', { name: 'Your Cart is Empty' })).toBeVisible()
    await shoot(page, 'cart-empty')
    await page.getByRole('link', { name: 'Continue Shopping' }).click()
    await expect(page).toHaveURL(/\/$/)

    const [first, second] = (await addFirstTwoProducts(page)) as [string, string]
    await page.getByRole('link', { name: /^Cart/ }).click()
    await expect(page).toHaveURL(/\/cart$/)
    const firstLine = page.getByRole('listitem', { name: first })
    const secondLine = page.getByRole('listitem', { name: second })
    await expect(firstLine).toBeVisible()
    await expect(secondLine).toBeVisible()

    // Quantities: plus twice, minus once; the line total follows.
    const unit = money(await firstLine.getByText(/each$/).textContent())
    await firstLine.getByRole('button', { name: `Increase quantity of ${first}` }).click()
    await firstLine.getByRole('button', { name: `Increase quantity of ${first}` }).click()
    await firstLine.getByRole('button', { name: `Decrease quantity of ${first}` }).click()
    await expect(firstLine.getByRole('status')).toHaveText('2')
    await expect(firstLine.getByTestId('line-total')).toHaveText(`$${(unit * 2).toFixed(2)}`)
    await shoot(page, 'cart')

    // Removing a line; a quantity of 0 removes the line too.
    await secondLine.getByRole('button', { name: `Remove ${second}` }).click()
    await expect(secondLine).toHaveCount(0)
    await expect(page.getByTestId('cart-badge')).toHaveText('1')
    await expect(page.getByTestId('cart-total')).toHaveText(`$${(unit * 2).toFixed(2)}`)
    await expect(page.getByText('Secure payment with USDT-TRC20/TRX')).toBeVisible()

    await page.getByRole('button', { name: 'Proceed to Checkout' }).click()
    await expect(page).toHaveURL(/\/checkout$/)
    await expect(page.getByTestId('checkout-total')).toHaveText(`$${(unit * 2).toFixed(2)}`)
    const email = page.getByLabel('Email address')
    const submit = page.getByRole('button', { name: 'Continue to Payment' })
    // Empty: the submit is ignored.
    await submit.click()
    await expect(page).toHaveURL(/\/checkout$/)
    await email.fill('not-an-email')
    await submit.click()
    await expect(page.getByRole('alert')).toHaveText('Please enter a valid email address')
    await expect(page).toHaveURL(/\/checkout$/)
    await shoot(page, 'checkout')
    await email.fill('buyer@example.com')
    await submit.click()

    await expect(page).toHaveURL(/\/payment$/)
    await expect(page.getByRole('heading', { name: 'Complete Your Payment' })).toBeVisible()
    await expect(page.getByText('Time remaining')).toBeVisible()
    await expect(page.getByRole('timer')).toHaveText(/^(30:00|29:[0-5]\d)$/)
    await expect(page.getByTestId('pay-amount')).toHaveText(`$${(unit * 2).toFixed(2)}`)
    const addressField = page.getByLabel('Wallet address', { exact: true })
    const address = await addressField.inputValue()
    expect(address).toMatch(TRON_ADDRESS)
    const qr = page.getByRole('img', { name: `QR code of wallet address ${address}` })
    await expect(qr.locator('svg')).toHaveAttribute('height', '240')
    await expect(qr.locator('image')).toHaveAttribute('href', '/images/coin-logo.svg')
    await expect(page.getByText('Confirmation may take 1-5 minutes after you send.')).toBeVisible()
    // TRX at the rate locked with the order (the e2e shop uses a fixed 0.25 USD per TRX).
    await expect(page.getByLabel('Or pay in TRX')).toHaveValue(
      (Math.ceil(unit * 2 * 4 * 100) / 100).toFixed(2),
    )

    // The countdown ticks.
    const before = await page.getByRole('timer').textContent()
    await expect(page.getByRole('timer')).not.toHaveText(before ?? '', { timeout: 3000 })

    await page.getByRole('button', { name: 'Copy wallet address' }).click()
    await expect(page.getByText('Wallet address copied to clipboard')).toBeVisible()
    await expect(page.getByTestId('copied-icon')).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address)
    await expect(page.getByTestId('copied-icon')).toHaveCount(0, { timeout: 4000 })
    await shoot(page, 'payment')

    // A reload keeps the buyer on the same payment.
    await page.reload()
    await expect(page).toHaveURL(/\/payment$/)
    await expect(page.getByLabel('Wallet address', { exact: true })).toHaveValue(address)
    // Leaving for another page and reloading brings the buyer back to the payment.
    await page.goto('/support')
    await expect(page).toHaveURL(/\/payment$/)

    // Cancel: the confirmation, then back to /cart with the cart kept.
    await page.getByRole('button', { name: 'Cancel', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: 'Cancel Payment' })
    await expect(
      dialog.getByText(
        'Are you sure you want to cancel this payment? Your cart will be preserved and you can try again later.',
      ),
    ).toBeVisible()
    await shoot(page, 'payment-cancel')
    await dialog.getByRole('button', { name: 'No, Continue Payment' }).click()
    await expect(dialog).toBeHidden()
    await page.getByRole('button', { name: 'Cancel', exact: true }).click()
    await dialog.getByRole('button', { name: 'Yes, Cancel Payment' }).click()
    await expect(page).toHaveURL(/\/cart$/)
    await expect(page.getByRole('listitem', { name: first })).toBeVisible()
    expect(await page.evaluate(() => localStorage.getItem('checkout-state'))).toBeNull()

    // The cancelled order's address rests for its cool-down: an order asking for it now gets another.
    const products = await (await page.request.post('/rpc/fetch_products', { data: {} })).json()
    const product = products.products.find((p: { name: string }) => p.name === first)
    const retry = await page.request.post('/rpc/secure_create_order', {
      data: {
        p_email: 'other@example.com',
        p_items: [{ product: { id: product.id }, quantity: 1 }],
        p_total: product.price,
        p_wallet_address: address,
      },
    })
    const answer = await retry.json()
    expect(answer).toMatchObject({ success: true })
    expect(answer.wallet_address).not.toBe(address)
    await page.request.post('/rpc/secure_cancel_order', {
      data: { p_order_id: answer.order_id, p_order_secret: answer.order_secret },
    })
  })

  test('an empty cart cannot check out, and /payment without a checkout goes to /cart', async ({ page }) => {
    await page.goto('/checkout')
    await expect(page).toHaveURL(/\/$/)
    await page.goto('/payment')
    await expect(page).toHaveURL(/\/cart$/)
  })

  test('with the TRX price source down USDT still works; when the window runs out, cart and checkout clear', async ({
    page,
  }) => {
    test.setTimeout(60_000)
    const base = `http://127.0.0.1:${E2E_SHORT_WINDOW_PORT}`
    await page.goto(`${base}/`)
    const card = page.getByRole('article').filter({ has: page.getByRole('button', { name: 'Add to Cart' }) })
    await card.first().getByRole('button', { name: 'Add to Cart' }).click()
    await page.goto(`${base}/checkout`)
    await page.getByLabel('Email address').fill('late@example.com')
    await page.getByRole('button', { name: 'Continue to Payment' }).click()
    await expect(page).toHaveURL(/\/payment$/)
    await expect(page.getByRole('timer')).toHaveText(/^0:1\d$/)
    // This shop's price source is down: the TRX option is replaced by a short note, USDT stands.
    await expect(page.getByTestId('trx-unavailable')).toBeVisible()
    await expect(page.getByLabel('Or pay in TRX')).toHaveCount(0)
    await expect(page.getByTestId('pay-amount')).toHaveText(/^\$\d+\.\d{2}$/)
    await expect(page.getByText('Payment window expired. Please try again.')).toBeVisible({ timeout: 25_000 })
    await expect(page).toHaveURL(/\/cart$/)
    await expect(page.getByRole('heading', { name: 'Your Cart is Empty' })).toBeVisible()
    expect(await page.evaluate(() => localStorage.getItem('checkout-state'))).toBeNull()
    expect(await page.evaluate(() => localStorage.getItem('cart-items'))).toBe('[]')
  })
})
