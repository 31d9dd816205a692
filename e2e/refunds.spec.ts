import { buyerWallet } from './support/buyer-wallet'
import { mailTo } from './support/outbox'
import { ownShopForThisFile } from './support/own-shop'
import { shoot } from './support/screens'
import { expect, test } from './support/test'
import { expectShownWhole } from './support/whole'

// A refund from start to proof: the operator starts it on the order, the buyer names the address
// through the e-mailed link (seeing it again to confirm), the operator pays from their own wallet
// (a devchain transfer from any address) and the shop's watch finds it: sent on both sides.
const PASSWORD = 'e2e-refunds-password'
const EMAIL = 'refund.buyer@example.com'

const shop = ownShopForThisFile(
  { ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: PASSWORD, REFUND_WATCH_MS: '1000' },
  'refunds',
)

test('the operator starts a refund, the buyer names the address, the paid refund shows sent on both sides', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000)
  // A paid order.
  const placed = await (
    await page.request.post('/rpc/secure_create_order', {
      data: {
        p_email: EMAIL,
        p_items: [{ product: { id: 1 }, quantity: 1 }],
        p_total: 49.99,
        p_locale: 'en',
      },
    })
  ).json()
  expect(placed.success).toBe(true)
  const payer = buyerWallet()
  await page.request.post(`${shop.devchainUrl}/_sim/transfers`, {
    data: { to: placed.wallet_address, amount: '49.99', from: payer },
  })
  await page.request.post(`${shop.devchainUrl}/_sim/mine`, { data: { blocks: 20 } })
  const status = async () =>
    (await (
      await page.request.post('/rpc/secure_get_order_status', {
        data: { p_order_id: placed.order_id, p_order_secret: placed.order_secret },
      })
    ).json()) as { status: string; access_token: string | null }
  await expect.poll(async () => (await status()).status, { timeout: 20_000 }).toBe('paid')

  // The operator starts a full refund on the order.
  await page.goto('/admin/login')
  await page.getByLabel('Username').fill('admin')
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Login' }).click()
  await expect(page).toHaveURL(/\/admin$/)
  await page.getByRole('searchbox', { name: 'Search orders' }).fill(placed.order_id)
  const row = page.getByRole('row').filter({ hasText: EMAIL })
  await row.getByRole('button', { name: placed.order_id.slice(0, 8) }).click()
  const detail = page.getByRole('dialog', { name: 'Order details' })
  await detail.getByRole('button', { name: 'Refund…' }).click()
  await detail.getByLabel('Reason').fill('The key did not activate')
  await expect(detail.getByLabel("Disable the order's keys once it is fully refunded")).toBeChecked()
  await shoot(page, 'refund-admin-start')
  await detail.getByRole('button', { name: 'Start refund' }).click()
  await expect(page.getByText('Refund started')).toBeVisible()
  await expect(detail.getByText("Waiting for the buyer's address")).toBeVisible()
  await expect(detail.getByText(`The payment came from ${payer}`)).toBeVisible()
  await shoot(page, 'refund-admin-awaiting')

  // The buyer opens the e-mailed link and names a wallet of their own.
  const mail = await mailTo(shop.outbox, EMAIL, /refund/i)
  const link = /http:\/\/\S+\/refund\/[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')?.[0]
  expect(link).toBeTruthy()
  const buyer = await browser.newPage()
  await buyer.goto(link as string)
  await expect(buyer.getByRole('heading', { name: 'Your refund' })).toBeVisible()
  await expect(buyer.getByText('49.99 USDT')).toBeVisible()
  await expect(buyer.getByText(`Your payment came from ${payer}.`)).toBeVisible()
  await expect(buyer.getByText(/exchange deposit addresses often cannot receive refunds/)).toBeVisible()
  // The network by the one name the operator sees too, and until when the link works.
  await expect(buyer.getByTestId('refund-network')).toHaveText('TRON (TRC-20)')
  await expect(buyer.getByText('This link works until')).toBeVisible()
  await shoot(buyer, 'refund-buyer-address')
  // The page speaks the buyer's language; opening the link again does not spend it.
  await buyer.goto(`${link}?lang=zh`)
  await expect(buyer.getByRole('heading', { name: '您的退款' })).toBeVisible()
  await shoot(buyer, 'refund-buyer-address-zh')
  await buyer.goto(`${link}?lang=ru`)
  await expect(buyer.getByRole('heading', { name: 'Ваш возврат' })).toBeVisible()
  await shoot(buyer, 'refund-buyer-address-ru')
  await buyer.goto(`${link}?lang=en`)
  await expect(buyer.getByRole('heading', { name: 'Your refund' })).toBeVisible()
  // An 0x address is refused as it is typed, in the server's words.
  await buyer.getByLabel('Your TRON address').pressSequentially('0x7')
  await expect(buyer.getByRole('alert')).toHaveText('Enter a TRON address (it starts with T, 34 characters)')
  await buyer.getByLabel('Your TRON address').fill('not an address')
  await buyer.getByRole('button', { name: 'Continue' }).click()
  await expect(buyer.getByText('Enter a TRON address (it starts with T, 34 characters)')).toBeVisible()
  const own = buyerWallet()
  await buyer.getByLabel('Your TRON address').fill(own)
  await buyer.getByRole('button', { name: 'Continue' }).click()
  await expect(buyer.getByRole('heading', { name: 'Check your address' })).toBeVisible()
  await expect(buyer.getByTestId('refund-confirm-address')).toHaveText(own)
  await shoot(buyer, 'refund-buyer-confirm')
  await buyer.getByRole('button', { name: 'Yes, send it here' }).click()
  await expect(buyer.getByRole('heading', { name: 'Thank you' })).toBeVisible()
  await shoot(buyer, 'refund-buyer-done')

  // The operator sees what to pay, as text and QR.
  await expect(detail.getByText('Ready: pay it from your wallet')).toBeVisible({ timeout: 15_000 })
  await expect(detail.getByTestId('refund-amount')).toHaveText('49.99 USDT')
  await expect(detail.getByTestId('refund-network')).toHaveText('TRON (TRC-20)')
  await expect(detail.getByRole('textbox', { name: 'Address' })).toHaveValue(own)
  await expect(detail.getByRole('img', { name: 'QR code of the refund address' })).toBeVisible()
  // The TRON address whole on the card at 375 px too.
  await expectShownWhole(page, detail.getByRole('textbox', { name: 'Address' }))
  await shoot(page, 'refund-admin-ready')

  // The operator pays from their own wallet; the shop finds the transfer once it is final.
  const sent = await (
    await page.request.post(`${shop.devchainUrl}/_sim/transfers`, {
      data: { to: own, amount: '49.99', from: buyerWallet() },
    })
  ).json()
  await page.request.post(`${shop.devchainUrl}/_sim/mine`, { data: { blocks: 20 } })
  await expect(detail.getByText('Sent, verified on the chain')).toBeVisible({ timeout: 30_000 })
  await expect(detail.getByRole('link', { name: sent.transaction_id })).toBeVisible()
  await expect(detail.getByText('refunded', { exact: true })).toBeVisible({ timeout: 10_000 })
  await shoot(page, 'refund-admin-sent')

  // The buyer's dashboard shows it, and the e-mail with the transaction came.
  const { access_token } = await status()
  await buyer.goto(`/dashboard/${access_token}`)
  const refunds = buyer.getByRole('region', { name: 'Refunds' })
  await expect(refunds.getByText('Sent', { exact: false })).toBeVisible()
  await expect(refunds.getByText('49.99 USDT').first()).toBeVisible()
  await expect(refunds.getByText('· TRON (TRC-20)')).toBeVisible()
  await expect(buyer.getByText('Refunded', { exact: true })).toBeVisible()
  // The disabled licence says why: the refund.
  await expect(
    buyer
      .getByText(/This licence was disabled because the order was refunded \(49\.99\s+USDT, sent /)
      .first(),
  ).toBeVisible()
  await shoot(buyer, 'refund-buyer-dashboard')
  const sentMail = await mailTo(shop.outbox, EMAIL, /was sent/)
  expect(sentMail.text).toContain(sent.transaction_id)
})
