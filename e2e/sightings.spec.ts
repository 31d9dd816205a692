import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from '@playwright/test'
import { buyerWallet } from './support/buyer-wallet'
import { ownShopForThisFile } from './support/own-shop'
import { shoot } from './support/screens'
import { expect, interactiveContext, type Page, test } from './support/test'

// Payments seen in seconds (decision 024), in Chromium, on a devchain running its own clock: a block
// every 1.5 s (TRON's is 3 s; half keeps the two solidifications the test waits for at about 30 s
// each), solidified 19 blocks later, nothing mined by the test. Four buyers pay at once
// (their own browsers), so the one wait for solidification serves them all: one sees their payment
// detected and then Payment Successful; one whose transaction vanishes from the head is told it
// was dropped and waits again; one whose transfer ran out of energy is told why nothing arrived;
// one who sent half is told what is missing, is asked for the rest alone, and sending it pays.

const shop = ownShopForThisFile(
  {
    DEVCHAIN_AUTO_MINE: 'true',
    DEVCHAIN_BLOCK_MS: '1500',
    // Long enough for a transfer to be solidified inside the window.
    PAYMENT_WINDOW_MINUTES: '5',
  },
  'sightings',
)

interface Buyer {
  page: Page
  email: string
  address: string
  amount: string
  orderId: string
  secret: string
}

async function buyer(browser: Browser, email: string): Promise<Buyer> {
  const context = await interactiveContext(browser, { baseURL: shop.url })
  const page = await context.newPage()
  await page.goto('/')
  const cards = page.getByRole('article').filter({ has: page.getByRole('button', { name: 'Add to Cart' }) })
  await cards.first().getByRole('button', { name: 'Add to Cart' }).click()
  await page.goto('/checkout')
  await page.getByLabel('Email address').fill(email)
  await page.getByRole('button', { name: 'Continue to Payment' }).click()
  await expect(page).toHaveURL(/\/payment$/)
  const address = await page.getByLabel('Wallet address', { exact: true }).inputValue()
  const amount = (await page.getByTestId('pay-amount').textContent())?.replace('$', '') ?? ''
  const state = JSON.parse((await page.evaluate(() => localStorage.getItem('checkout-state'))) ?? '{}')
  return { page, email, address, amount, orderId: state.orderId, secret: state.orderSecret }
}

async function send(page: Page, body: Record<string, unknown>) {
  const response = await page.request.post(`${shop.devchainUrl}/_sim/transfers`, {
    data: { from: buyerWallet(), ...body },
  })
  expect(response.ok(), await response.text()).toBe(true)
  return (await response.json()) as { transaction_id: string; block_number: number }
}

async function statusOf(b: Buyer) {
  const response = await b.page.request.post(`${shop.url}/rpc/secure_get_order_status`, {
    data: { p_order_id: b.orderId, p_order_secret: b.secret },
  })
  return (await response.json()) as Record<string, unknown>
}

const mailsTo = (email: string) =>
  existsSync(shop.outbox)
    ? readdirSync(shop.outbox).filter((n) => readFileSync(join(shop.outbox, n), 'utf8').includes(email))
    : []

test('detected in seconds, then paid at solidification; dropped, failed and short transfers said plainly', async ({
  browser,
}) => {
  // About a minute of it is the chain solidifying the transfers twice; the rest is four checkouts.
  test.setTimeout(360_000)
  const [paid, dropped, failed, short] = await Promise.all([
    buyer(browser, 'seen-buyer@example.com'),
    buyer(browser, 'dropped-buyer@example.com'),
    buyer(browser, 'energy-buyer@example.com'),
    buyer(browser, 'short-buyer@example.com'),
  ])

  const sent = Date.now()
  await send(paid.page, { to: paid.address, amount: paid.amount })
  const vanishing = await send(dropped.page, { to: dropped.address, amount: dropped.amount })
  const energy = await send(failed.page, {
    to: failed.address,
    amount: failed.amount,
    failed: 'OUT_OF_ENERGY',
  })
  const half = (Number(short.amount) / 2).toFixed(2)
  await send(short.page, { to: short.address, amount: half })

  // Seen in the head within seconds (the block comes within 1.5 s), long before solidification.
  const detected = paid.page.getByTestId('payment-detected')
  await expect(detected).toContainText('Payment detected — confirming on the TRON network', {
    timeout: 12_000,
  })
  expect(Date.now() - sent).toBeLessThan(12_000)
  await expect(detected).toContainText(`Amount seen: $${paid.amount}`)
  await expect(detected).toContainText(/\d+ of \d+ blocks built on your transfer · about \d+ seconds left/)
  await expect(paid.page.getByRole('progressbar')).toBeVisible()
  await expect(paid.page.getByText('Waiting for your payment…')).toHaveCount(0)
  await shoot(paid.page, 'payment-detected')

  await expect(dropped.page.getByTestId('payment-detected')).toBeVisible({ timeout: 12_000 })
  const gone = await dropped.page.request.post(`${shop.devchainUrl}/_sim/drop`, {
    data: { txid: vanishing.transaction_id },
  })
  expect(gone.ok(), await gone.text()).toBe(true)

  const failure = failed.page.getByTestId('payment-failed')
  await expect(failure).toContainText('failed on the TRON network', { timeout: 12_000 })
  await expect(failure).toContainText('Your wallet did not have enough TRX for the network fee')
  await expect(failure).toContainText(energy.transaction_id)
  await expect(failed.page.getByText('Waiting for your payment…')).toBeVisible()
  await shoot(failed.page, 'payment-failed-out-of-energy')

  const missing = (Number(short.amount) - Number(half)).toFixed(2)
  await expect(short.page.getByTestId('payment-detected')).toContainText(
    `$${missing} is still missing: send it to the same address.`,
    { timeout: 12_000 },
  )

  // Solidified 19 blocks later (about 30 s): paid exactly as before.
  await expect(paid.page.getByText('Payment confirmed! Redirecting...')).toBeVisible({ timeout: 90_000 })
  await expect(paid.page.getByRole('dialog', { name: 'Payment Successful' })).toBeVisible()

  // The vanished transfer: back to waiting with the message, and nothing paid or sent.
  await expect(dropped.page.getByTestId('payment-dropped')).toContainText(
    'was dropped by the TRON network before it was confirmed',
    { timeout: 30_000 },
  )
  await expect(dropped.page.getByText('Waiting for your payment…')).toBeVisible()
  await shoot(dropped.page, 'payment-dropped')
  expect(await statusOf(dropped)).toMatchObject({ status: 'pending', amount_received: 0, access_token: null })
  expect(mailsTo(dropped.email)).toEqual([])

  // The failed transfer: solidified too, and still nothing credited.
  expect(await statusOf(failed)).toMatchObject({ status: 'pending', amount_received: 0, access_token: null })
  await expect(failure).toBeVisible()
  expect(mailsTo(failed.email)).toEqual([])

  // The short transfer, once solidified, is the underpaid order of today.
  // Said in the token's own units (what is missing rounded up, never down).
  await expect(
    short.page.getByText(
      new RegExp(
        `We received ${half}\\sUSDT of ${short.amount}\\sUSDT\\. Send the remaining ${missing}\\sUSDT`,
      ),
    ),
  ).toBeVisible({
    timeout: 30_000,
  })
  // What the page asks for now is the rest, never the total again; TRON's QR code stays the address.
  await expect(short.page.getByRole('heading', { name: 'Still to pay (USDT-TRC20)' })).toBeVisible()
  await expect(short.page.getByTestId('pay-amount')).toHaveText(new RegExp(`^${missing}\\sUSDT$`))
  await expect(
    short.page.getByText(
      new RegExp(
        `^Send exactly the remaining ${missing}\\sUSDT on the TRON network \\(TRC20\\), not the full total\\.$`,
      ),
    ),
  ).toBeVisible()
  await expect(short.page.getByText(/^Send exactly \d/)).toHaveCount(0)
  await expect(short.page.getByTestId('wallet-qr')).toHaveAttribute('data-value', short.address)
  await shoot(short.page, 'payment-tron-short')
  await expect.poll(() => mailsTo(paid.email).length, { timeout: 10_000 }).toBe(1)

  // Sending what the page asks for completes the order.
  const asked = ((await short.page.getByTestId('pay-amount').textContent()) ?? '').replace(/\s*USDT$/, '')
  await send(short.page, { to: short.address, amount: asked })
  await expect(short.page.getByRole('dialog', { name: 'Payment Successful' })).toBeVisible({
    timeout: 120_000,
  })
  expect(await statusOf(short)).toMatchObject({ status: 'paid', amount_received: Number(short.amount) })
})
