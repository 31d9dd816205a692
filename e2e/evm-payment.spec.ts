import type { Anvil } from '../tests/support/evm/anvil'
import { spawnAnvil } from '../tests/support/evm/anvil'
import { accounts, deployStablecoin, mint, transfer, USDT_18 } from '../tests/support/evm/tokens'
import { ownShopForThisFile } from './support/own-shop'
import { shoot } from './support/screens'
import { adminLogin } from './support/shop'
import { expect, test } from './support/test'

// A buyer pays with USDT on BNB Smart Chain, in Chromium, on a real EVM node: Anvil with chain id
// 56 and a block every 2 s, an 18-decimal USDT deployed on it, the shop following it at a depth of
// 12 blocks. The buyer picks the network at checkout, reads the address, the exact amount and the
// networks that pay the order, sends the tokens from a wallet on the node, sees "detected —
// confirming" and then Payment Successful. Screenshots of the choice and of the payment page at
// 375 px and 1440 px in English, Chinese and Russian.
const PASSWORD = 'evm-e2e-Password-1'
const DEPTH = 12
const env: Record<string, string> = {
  ADMIN_PASSWORD: PASSWORD,
  PAYMENT_WINDOW_MINUTES: '10',
  EVM_BSC_ENABLED: 'true',
  EVM_BSC_CONFIRMATIONS: String(DEPTH),
  EVM_BSC_POLL_MS: '500',
}
let anvil: Anvil
let usdt: `0x${string}`
let buyerWallet: `0x${string}`
let deployer: `0x${string}`
const pool = [
  '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
  '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
  '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
]

test.beforeAll(async () => {
  test.setTimeout(120_000)
  // On a port found free, like the shop and its devchain below.
  anvil = await spawnAnvil({ chainId: 56, blockTime: 2 })
  ;[deployer, buyerWallet] = await accounts(anvil)
  usdt = await deployStablecoin(anvil, USDT_18)
  await mint(anvil, usdt, deployer, buyerWallet, 1_000n * 10n ** 18n)
  env.EVM_BSC_PROVIDER_1_URL = anvil.url
  env.EVM_BSC_TOKENS = JSON.stringify([{ symbol: 'USDT', contract: usdt, decimals: 18 }])
})
ownShopForThisFile(env, 'evm')
test.afterAll(async () => {
  await anvil?.stop()
})

test('the operator adds EVM addresses to the pool', async ({ page }) => {
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

test('a buyer picks USDT on BNB Smart Chain, pays on the node, sees confirming and Payment Successful', async ({
  page,
}) => {
  test.setTimeout(180_000)
  await page.goto('/')
  // The storefront says what it takes: every network, not TRON's words alone.
  await expect(page.getByText('Instant delivery · USDT on 2 networks')).toBeVisible()
  await expect(page.getByText('We accept USDT · TRON, USDT · BNB Smart Chain')).toBeVisible()
  await expect(page.getByText('USDT-TRC20/TRX', { exact: false })).toHaveCount(0)
  await shoot(page, 'storefront-several-networks')
  const cards = page.getByRole('article').filter({ has: page.getByRole('button', { name: 'Add to Cart' }) })
  await cards.first().getByRole('button', { name: 'Add to Cart' }).click()
  for (const lang of ['zh', 'ru'] as const) {
    await page.goto(`/checkout?lang=${lang}`)
    await page.getByTestId('network-choice').getByText('USDT · BNB Smart Chain').click()
    await shoot(page, `checkout-network-${lang}`)
  }
  await page.goto('/checkout?lang=en')
  const choice = page.getByRole('group', { name: 'Network and token' })
  // TRON's USDT, and the one token this node's BNB Smart Chain takes.
  await expect(choice.getByRole('radio')).toHaveCount(2)
  await expect(choice.getByRole('radio', { name: /USDT · TRON/ })).toBeChecked()
  await page.getByLabel('Email address').fill('evm-buyer@example.com')
  // The keyboard moves the choice, as in any radio group.
  await choice.getByRole('radio', { name: /USDT · TRON/ }).focus()
  await page.keyboard.press('ArrowDown')
  await expect(choice.getByRole('radio', { name: /USDT · BNB Smart Chain/ })).toBeChecked()
  await shoot(page, 'checkout-network-en')
  await page.getByRole('button', { name: 'Continue to Payment' }).click()
  await expect(page).toHaveURL(/\/payment$/)

  await expect(page.getByRole('heading', { name: 'Amount to pay (USDT · BNB Smart Chain)' })).toBeVisible()
  const address = await page.getByLabel('Wallet address', { exact: true }).inputValue()
  expect(pool).toContain(address)
  const amount = await page.getByLabel('Amount in USDT', { exact: true }).inputValue()
  const dollars = (await page.getByTestId('pay-amount').textContent())?.replace('$', '') ?? ''
  expect(amount).toBe(Number(dollars).toFixed(2))
  await expect(page.getByTestId('token-decimals')).toContainText('USDT has 18 decimals on BNB Smart Chain')
  await expect(page.getByTestId('watched-networks')).toContainText('USDT · BNB Smart Chain')
  await expect(page.getByText('Waiting for your payment…')).toBeVisible()
  await shoot(page, 'payment-evm-en')
  for (const [lang, name] of [
    ['zh', 'payment-evm-zh'],
    ['ru', 'payment-evm-ru'],
  ] as const) {
    await page.goto(`/payment?lang=${lang}`)
    await shoot(page, name)
  }
  await page.goto('/payment?lang=en')

  const [whole, cents = '00'] = amount.split('.')
  const units = BigInt(whole as string) * 10n ** 18n + BigInt(cents.padEnd(18, '0'))
  await transfer(anvil, usdt, buyerWallet, address as `0x${string}`, units)
  await expect(page.getByTestId('payment-detected')).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('payment-detected')).toContainText('confirming on BNB Smart Chain')
  await expect(page.getByTestId('payment-detected')).toContainText(/of \d+ blocks built on your transfer/)
  await shoot(page, 'payment-evm-confirming-en')
  await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible({ timeout: 60_000 })
})

test('a refund of the BNB Smart Chain order is paid on that network, and the operator is told so', async ({
  page,
}) => {
  await adminLogin(page, PASSWORD)
  await page.getByRole('searchbox', { name: 'Search orders' }).fill('evm-buyer@example.com')
  const row = page.getByRole('row').filter({ hasText: 'evm-buyer@example.com' })
  await row.getByRole('button').first().click()
  const detail = page.getByRole('dialog', { name: 'Order details' })
  await detail.getByRole('button', { name: 'Refund…' }).click()
  await detail.getByLabel('Reason').fill('Bought the wrong plan')
  await detail.getByRole('button', { name: 'Start refund' }).click()
  await expect(detail.getByText("Waiting for the buyer's address")).toBeVisible()
  // The buyer wrote back with an address; the operator enters it (a TRON one is refused).
  await detail.getByLabel('Address the buyer sent you').fill('TLyqzVGLV1srkB7dToTAEqgDSfPtXRJZYH')
  await detail.getByRole('button', { name: 'Use this address' }).click()
  await expect(
    detail.getByText('Enter an address that starts with 0x and has 40 hex digits after it'),
  ).toBeVisible()
  await detail.getByLabel('Address the buyer sent you').fill(buyerWallet)
  await detail.getByRole('button', { name: 'Use this address' }).click()
  await expect(detail.getByText('Ready: pay it from your wallet')).toBeVisible()
  await expect(detail.getByTestId('refund-network')).toHaveText('BNB Smart Chain (BEP-20)')
  await expect(detail.getByRole('textbox', { name: 'Address' })).toHaveValue(buyerWallet)
  await shoot(page, 'refund-admin-ready-evm')
})

test('the Chain tab shows each enabled chain on its own line with its depth and recorded height', async ({
  page,
}) => {
  await adminLogin(page, PASSWORD)
  await page.goto('/admin/chain')
  const bsc = page.getByRole('listitem', { name: 'BNB Smart Chain', exact: true })
  await expect(page.getByRole('listitem', { name: 'TRON', exact: true })).toBeVisible()
  await expect(bsc).toContainText('Following')
  await expect(bsc).toContainText(`${DEPTH} blocks`)
  await expect(bsc.getByRole('definition').nth(1)).toHaveText(/^\d+$/)
  await shoot(page, 'admin-chains-en')
})
