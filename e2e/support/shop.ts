import { expect, type Page } from './test'

/** Puts the first product for sale in the cart and submits the checkout with this e-mail. */
export async function startCheckout(page: Page, email: string): Promise<void> {
  await page.goto('/')
  const cards = page.getByRole('article').filter({ has: page.getByRole('button', { name: 'Add to Cart' }) })
  await cards.first().getByRole('button', { name: 'Add to Cart' }).click()
  await page.goto('/checkout')
  await page.getByLabel('Email address').fill(email)
  await page.getByRole('button', { name: 'Continue to Payment' }).click()
}

/** Logs in as `admin` and lands on the Orders tab. */
export async function adminLogin(page: Page, password: string): Promise<void> {
  await page.goto('/admin/login')
  await page.getByLabel('Username').fill('admin')
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Login' }).click()
  await expect(page).toHaveURL(/\/admin$/)
}
