import { buyerWallet } from './support/buyer-wallet'
import { ownShopForThisFile } from './support/own-shop'
import { shoot } from './support/screens'
import { expect, type Page, test } from './support/test'

// A buyer who pays again to an address from their wallet history, after it went to a stranger's
// order, does not get the stranger's order delivered: the operator sees it held and decides.
const PASSWORD = 'e2e-held-password'

const shop = ownShopForThisFile(
  { ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: PASSWORD, ADMIN_ALLOWED_USER_AGENTS: 'Chrome/||Edg/' },
  'held-order',
)

interface Placed {
  id: string
  secret: string
  address: string
}

async function placeOrder(page: Page, email: string): Promise<Placed> {
  const res = await page.request.post('/rpc/secure_create_order', {
    data: { p_email: email, p_items: [{ product: { id: 1 }, quantity: 1 }], p_total: 49.99 },
  })
  const body = await res.json()
  expect(body.success).toBe(true)
  return { id: body.order_id, secret: body.order_secret, address: body.wallet_address }
}

async function pay(page: Page, to: string, from: string) {
  const sent = await page.request.post(`${shop.devchainUrl}/_sim/transfers`, {
    data: { to, amount: '49.99', from },
  })
  expect(sent.ok()).toBe(true)
  expect((await page.request.post(`${shop.devchainUrl}/_sim/mine`, { data: { blocks: 20 } })).ok()).toBe(true)
}

async function statusOf(page: Page, order: Placed): Promise<string> {
  const res = await page.request.post('/rpc/secure_get_order_status', {
    data: { p_order_id: order.id, p_order_secret: order.secret },
  })
  return (await res.json()).status
}

test('an earlier payer re-sending to a reused address: the order is held, and the operator releases it', async ({
  page,
}) => {
  const wallet = buyerWallet()
  const first = await placeOrder(page, 'earlier@example.com')
  await pay(page, first.address, wallet)
  await expect.poll(() => statusOf(page, first), { timeout: 15_000 }).toBe('paid')

  // Leasing hands out the address that has rested longest: cancel the others until the first
  // order's address comes back (its cool-down is 3 s here).
  let stranger: Placed | undefined
  for (let i = 0; i < 40 && !stranger; i++) {
    const next = await placeOrder(page, 'stranger@example.com').catch(() => null)
    if (next?.address === first.address) stranger = next
    else {
      if (next) {
        await page.request.post('/rpc/secure_cancel_order', {
          data: { p_order_id: next.id, p_order_secret: next.secret },
        })
      }
      await page.waitForTimeout(250)
    }
  }
  if (!stranger) throw new Error('the first address did not come back')
  await pay(page, stranger.address, wallet)

  await page.goto('/admin/login')
  await page.getByLabel('Username').fill('admin')
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Login' }).click()
  await expect(page).toHaveURL(/\/admin$/)
  await page.getByLabel('Search orders').fill(stranger.id)
  const release = page.getByRole('button', { name: `Release held payment of order ${stranger.id}` })
  await expect(release).toBeVisible({ timeout: 15_000 })
  await expect(page.getByText('Held for review', { exact: true }).filter({ visible: true })).toBeVisible()
  expect(await statusOf(page, stranger)).toBe('pending')
  await shoot(page, 'admin-held-order')

  await release.click()
  await expect(page.getByText('Payment released; the order is paid')).toBeVisible()
  await expect(page.getByText('Held for review', { exact: true }).filter({ visible: true })).toHaveCount(0)
  expect(await statusOf(page, stranger)).toBe('paid')
})
