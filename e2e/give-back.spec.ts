import { mkdirSync } from 'node:fs'
import { buyerWallet } from './support/buyer-wallet'
import { ownShopForThisFile } from './support/own-shop'
import { expect, type Page, test } from './support/test'

// A buyer pays, and before the payment is final starts another checkout from the same browser
// (decision 041): the earlier order is kept and paid when final, the new one has an address of its
// own, and its payment page says so. The devchain runs on its own clock (a block a second,
// solidified 19 blocks later); both payments come from the same wallet and neither is held.
const SHOTS = process.env.SHOTS_DIR

const shop = ownShopForThisFile(
  { DEVCHAIN_AUTO_MINE: 'true', DEVCHAIN_BLOCK_MS: '1000', CHAIN_BLOCK_MS: '1000' },
  'give-back',
)

async function toPayment(page: Page) {
  await page.goto('/')
  const cards = page.getByRole('article').filter({ has: page.getByRole('button', { name: 'Add to Cart' }) })
  await cards.first().getByRole('button', { name: 'Add to Cart' }).click()
  await page.goto('/checkout')
  await page.getByLabel('Email address').fill('twice@example.com')
  await page.getByRole('button', { name: 'Continue to Payment' }).click()
  await expect(page).toHaveURL(/\/payment$/)
  const address = await page.getByLabel('Wallet address', { exact: true }).inputValue()
  const amount = (await page.getByTestId('pay-amount').textContent())?.replace('$', '') ?? ''
  const state = JSON.parse((await page.evaluate(() => localStorage.getItem('checkout-state'))) ?? '{}')
  return { address, amount, orderId: state.orderId as string, secret: state.orderSecret as string }
}

async function shoot(page: Page, name: string) {
  if (!SHOTS) return
  mkdirSync(SHOTS, { recursive: true })
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 })
    await page.evaluate(async () => {
      await document.fonts.ready
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
    })
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true })
  }
}

test('paid, then a new checkout before the payment is final: the earlier order is kept, the new one has its own address', async ({
  page,
}) => {
  test.setTimeout(240_000)
  const wallet = buyerWallet()
  const send = async (to: string, amount: string) => {
    const response = await page.request.post(`${shop.devchainUrl}/_sim/transfers`, {
      data: { from: wallet, to, amount },
    })
    expect(response.ok(), await response.text()).toBe(true)
  }
  const statusOf = async (order: { orderId: string; secret: string }) =>
    (await (
      await page.request.post(`${shop.url}/rpc/secure_get_order_status`, {
        data: { p_order_id: order.orderId, p_order_secret: order.secret },
      })
    ).json()) as Record<string, unknown>

  const first = await toPayment(page)
  await send(first.address, first.amount)
  await expect(page.getByText('Payment detected — confirming on the TRON network')).toBeVisible({
    timeout: 30_000,
  })

  // The page's stored checkout is gone (the buyer cleared it, or it ran out while they were away);
  // the browser's checkout cookie stays, so the shop knows the earlier order is this browser's.
  await page.evaluate(() => localStorage.removeItem('checkout-state'))
  const second = await toPayment(page)
  expect(second.address).not.toBe(first.address)
  const notice = page.getByTestId('earlier-payment-confirming')
  await expect(notice).toHaveText(
    /^Your earlier payment is being confirmed; this new order has its own address\./,
  )
  expect((await statusOf(first)).status).toBe('pending')
  await shoot(page, 'give-back-notice-en')
  for (const lang of ['zh', 'ru'] as const) {
    await page.goto(`/payment?lang=${lang}`)
    await expect(notice).toBeVisible()
    await shoot(page, `give-back-notice-${lang}`)
  }
  await page.goto('/payment?lang=en')
  await page.setViewportSize({ width: 1280, height: 900 })

  // The same wallet pays the new order: both are paid, nothing held.
  await send(second.address, second.amount)
  await expect(page.getByText('Payment Successful')).toBeVisible({ timeout: 120_000 })
  await expect.poll(async () => (await statusOf(first)).status, { timeout: 60_000 }).toBe('paid')
  expect(await statusOf(second)).toMatchObject({ status: 'paid' })
})
