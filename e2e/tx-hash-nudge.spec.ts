import { E2E_PORT } from '../playwright.config'
import { buyerWallet } from './support/buyer-wallet'
import { shoot } from './support/screens'
import { expect, type Page, test } from './support/test'

// Several minutes with nothing seen (decision 054): the payment page opens the transaction-hash form
// and says why, in every language; the hash of a payout a contract made without naming the address
// (which the shop's own reads would find only minutes later) pays the order at once.
const devchainUrl = `http://127.0.0.1:${E2E_PORT + 1000}`
const ROUTER = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL'

const words = {
  en: {
    addToCart: 'Add to Cart',
    email: 'Email address',
    pay: 'Continue to Payment',
    nudge: /^Nothing has been seen/,
  },
  zh: { addToCart: '加入购物车', email: '电子邮箱', pay: '继续付款', nudge: /^链上尚未看到付款/ },
  ru: {
    addToCart: 'В корзину',
    email: 'Адрес e-mail',
    pay: 'Перейти к оплате',
    nudge: /^Платёж в сети пока не виден/,
  },
} as const

/** Places an order in `lang`, then makes the browser's checkout six minutes old and reloads. */
async function waitedSixMinutes(page: Page, lang: keyof typeof words) {
  await page.context().addCookies([{ name: 'lang', value: lang, url: `http://127.0.0.1:${E2E_PORT}` }])
  await page.goto('/')
  await page.getByRole('button', { name: words[lang].addToCart }).first().click()
  await page.goto('/checkout')
  await page.getByLabel(words[lang].email).fill(`nudge-${lang}@example.com`)
  await page.getByRole('button', { name: words[lang].pay }).click()
  await expect(page).toHaveURL(/\/payment$/)
  await expect(page.getByTestId('tx-hash-nudge')).toHaveCount(0)
  await page.evaluate(() => {
    const state = JSON.parse(localStorage.getItem('checkout-state') ?? '{}')
    localStorage.setItem('checkout-state', JSON.stringify({ ...state, startTime: Date.now() - 6 * 60_000 }))
  })
  await page.reload()
  await expect(page.getByTestId('tx-hash-nudge')).toHaveText(words[lang].nudge)
  const state = JSON.parse((await page.evaluate(() => localStorage.getItem('checkout-state'))) ?? '{}')
  return { address: state.walletAddress as string, total: state.total as number }
}

for (const lang of ['zh', 'ru'] as const) {
  test(`nothing seen after minutes: the hash form opens and says why (${lang})`, async ({ page }) => {
    await waitedSixMinutes(page, lang)
    await shoot(page, `payment-nudge-${lang}`)
  })
}

test('nothing seen after minutes: the hash of a contract payout naming nobody pays the order at once', async ({
  page,
}) => {
  const { address, total } = await waitedSixMinutes(page, 'en')
  await shoot(page, 'payment-nudge-en')
  const sent = await page.request.post(`${devchainUrl}/_sim/transfers`, {
    data: { to: address, amount: total.toFixed(2), from: buyerWallet(), via_contract: ROUTER, unnamed: true },
  })
  expect(sent.ok(), await sent.text()).toBe(true)
  const { transaction_id } = (await sent.json()) as { transaction_id: string }
  expect((await page.request.post(`${devchainUrl}/_sim/mine`, { data: { blocks: 20 } })).ok()).toBe(true)
  await page.getByLabel('Transaction hash').fill(transaction_id)
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page.getByRole('dialog', { name: 'Payment Successful' })).toBeVisible({ timeout: 15_000 })
})
