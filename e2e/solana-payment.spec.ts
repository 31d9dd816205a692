import { generateKeyPairSigner, type KeyPairSigner } from '@solana/kit'
import { type RpcFront, serveRpc } from '../tools/solana-standin/rpc'
import { createStandin, type Standin } from '../tools/solana-standin/standin'
import { transferInstructions } from '../tools/solana-standin/transfers'
import { mailTo } from './support/outbox'
import { ownShopForThisFile } from './support/own-shop'
import { shoot } from './support/screens'
import { adminLogin } from './support/shop'
import { expect, test } from './support/test'
import { expectShownWhole } from './support/whole'

// A buyer pays with USDT on Solana, in Chromium, on the Solana stand-in: LiteSVM running the real
// SPL Token program behind a JSON-RPC front, a slot every 300 ms, confirmed one slot after and
// finalized 25 after. The buyer picks "USDT · Solana" at checkout, reads the Solana Pay transfer
// request (QR and link), sends the tokens from a wallet on the cluster, sees "detected —
// confirming" and then Payment Successful, and finds the key and the Solscan link on the dashboard.
// Screenshots of the choice and of the payment page at 375 px and 1440 px in English, Chinese and
// Russian.
const PASSWORD = 'solana-e2e-Password-1'
const env: Record<string, string> = {
  ADMIN_PASSWORD: PASSWORD,
  PAYMENT_WINDOW_MINUTES: '10',
  SOLANA_ENABLED: 'true',
  SOLANA_POLL_MS: '300',
  SOLANA_FINAL_EVERY_MS: '500',
  SOLANA_PAY_LABEL: 'Stablecart Demo',
}
let standin: Standin
let front: RpcFront
let buyer: KeyPairSigner
const pool: string[] = []

test.beforeAll(async () => {
  test.setTimeout(120_000)
  standin = await createStandin({ slotMs: 300, finalizeDepth: 25 })
  front = await serveRpc(standin)
  buyer = await generateKeyPairSigner()
  standin.airdrop(buyer.address)
  await standin.mintTo(standin.mints.usdt, buyer.address, 1_000_000_000n)
  for (let i = 0; i < 3; i++) pool.push((await generateKeyPairSigner()).address)
  env.SOLANA_PROVIDER_1_URL = front.url
})
const shop = ownShopForThisFile(env, 'solana')
test.afterAll(async () => {
  standin?.stop()
  await front?.close()
})

test('the operator adds Solana addresses to the pool', async ({ page }) => {
  await adminLogin(page, PASSWORD)
  const answer = await page.evaluate(async (addresses) => {
    const response = await fetch('/rpc/secure_add_wallet_addresses', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ p_addresses: addresses.join('\n') }),
    })
    return response.json()
  }, pool)
  expect(answer).toMatchObject({ success: true, added_count: pool.length })
})

test('a buyer picks USDT on Solana, scans a Solana Pay request, sees confirming, Payment Successful and the key', async ({
  page,
}) => {
  test.setTimeout(180_000)
  await page.goto('/')
  const cards = page.getByRole('article').filter({ has: page.getByRole('button', { name: 'Add to Cart' }) })
  await cards.first().getByRole('button', { name: 'Add to Cart' }).click()
  for (const lang of ['zh', 'ru'] as const) {
    await page.goto(`/checkout?lang=${lang}`)
    await page.getByTestId('network-choice').getByText('USDT · Solana').click()
    await shoot(page, `checkout-solana-${lang}`)
  }
  await page.goto('/checkout?lang=en')
  const choice = page.getByRole('group', { name: 'Network and token' })
  // TRON's USDT, then Solana's two stablecoins.
  await expect(choice.getByRole('radio')).toHaveCount(3)
  await expect(choice.getByRole('radio', { name: /USDT · TRON/ })).toBeChecked()
  await expect(choice.getByRole('radio', { name: /USDC · Solana/ })).toBeVisible()
  await page.getByLabel('Email address').fill('solana-buyer@example.com')
  await choice.getByRole('radio', { name: /USDT · TRON/ }).focus()
  await page.keyboard.press('ArrowDown')
  await expect(choice.getByRole('radio', { name: /USDT · Solana/ })).toBeChecked()
  await shoot(page, 'checkout-solana-en')
  await page.getByRole('button', { name: 'Continue to Payment' }).click()
  await expect(page).toHaveURL(/\/payment$/)

  await expect(page.getByRole('heading', { name: 'Amount to pay (USDT · Solana)' })).toBeVisible()
  const address = await page.getByLabel('Wallet address', { exact: true }).inputValue()
  expect(pool).toContain(address)
  await expectShownWhole(page, page.getByLabel('Wallet address', { exact: true }))
  const amount = await page.getByLabel('Amount in USDT', { exact: true }).inputValue()
  const dollars = (await page.getByTestId('pay-amount').textContent())?.replace('$', '') ?? ''
  expect(Number(amount)).toBe(Number(dollars))
  await expect(page.getByText(`Send exactly ${amount} USDT on Solana (SPL).`)).toBeVisible()
  await expect(page.getByTestId('token-decimals')).toContainText('USDT has 6 decimals on Solana')
  // The QR code and the link hold the same Solana Pay transfer request: address, exact amount, mint.
  const request = `solana:${address}?amount=${amount}&spl-token=${standin.mints.usdt}&reference=${address}&label=Stablecart%20Demo`
  await expect(
    page.getByRole('img', { name: `QR code of a USDT payment on Solana to ${address}` }),
  ).toBeVisible()
  await expect(page.getByTestId('wallet-qr')).toHaveAttribute('data-value', request)
  await expect(page.getByRole('link', { name: 'Open in your wallet' })).toHaveAttribute('href', request)
  await expect(page.getByText('Waiting for your payment…')).toBeVisible()
  // Solana's own wait, not TRON's.
  await expect(
    page.getByText(
      'Confirmation takes about 13 seconds after your transfer is in a block, when Solana makes it final.',
    ),
  ).toBeVisible()
  await expect(page.getByText(/1-5 minutes/)).toHaveCount(0)
  await shoot(page, 'payment-solana-en')
  for (const lang of ['zh', 'ru'] as const) {
    await page.goto(`/payment?lang=${lang}`)
    await expect(page.getByTestId('wallet-qr')).toHaveAttribute('data-value', request)
    await shoot(page, `payment-solana-${lang}`)
  }
  await page.goto('/payment?lang=en')
  // Solana calls a transaction's id its signature: "Already paid?" asks for one, and takes a whole one.
  await page.getByText('Already paid? Enter your transaction signature').click()
  const signature = page.getByLabel('Transaction signature')
  await expect(signature).toHaveAttribute('placeholder', 'Transaction signature (up to 88 characters)')
  await expect(signature).toHaveAttribute('maxlength', '88')
  await expect(page.getByText(/transaction hash/i)).toHaveCount(0)

  const [whole, frac = ''] = amount.split('.')
  const units = BigInt(whole as string) * 1_000_000n + BigInt(frac.padEnd(6, '0'))
  const sent = await standin.run(
    buyer,
    await transferInstructions({
      payer: buyer,
      to: address,
      mint: standin.mints.usdt,
      amount: units,
      reference: address,
    }),
  )
  expect(sent.err).toBeNull()
  await expect(page.getByTestId('payment-detected')).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('payment-detected')).toContainText('confirming on Solana')
  await shoot(page, 'payment-solana-confirming-en')
  const modal = page.getByRole('dialog', { name: 'Payment Successful' })
  await expect(modal).toBeVisible({ timeout: 60_000 })
  const link = await modal.getByRole('textbox', { name: 'Your purchase dashboard' }).inputValue()

  // The e-mail names the network and links the transaction on Solscan; the dashboard shows the key.
  const mail = await mailTo(shop.outbox, 'solana-buyer@example.com', /./, 15_000)
  expect(mail.text).toMatch(/USDT.*Solana/)
  expect(mail.text).toContain(`https://solscan.io/tx/${sent.signature}`)
  const key = /Key: (\S+)/.exec(mail.text ?? '')?.[1]
  expect(key).toBeTruthy()
  await page.goto(link)
  await expect(page.getByRole('heading', { name: 'Your purchase' })).toBeVisible()
  await expect(page.getByText('Paid', { exact: true })).toBeVisible()
  await expect(page.getByTestId('dashboard-network')).toHaveText('USDT · Solana')
  const values = await page
    .getByRole('textbox')
    .evaluateAll((els) => els.map((el) => (el as HTMLTextAreaElement).value))
  expect(values).toContain(key)
  await expect(
    page.getByRole('link', { name: /View the transaction on the Solana explorer/ }),
  ).toHaveAttribute('href', `https://solscan.io/tx/${sent.signature}`)
  await shoot(page, 'dashboard-solana-en')
})
