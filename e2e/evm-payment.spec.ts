import type { Anvil } from '../tests/support/evm/anvil'
import { spawnAnvil } from '../tests/support/evm/anvil'
import { accounts, deployStablecoin, mint, transfer, USDT_18 } from '../tests/support/evm/tokens'
import { mailsIn, mailTo } from './support/outbox'
import { ownShopForThisFile } from './support/own-shop'
import { shoot } from './support/screens'
import { adminLogin } from './support/shop'
import { expect, interactiveContext, test } from './support/test'
import { expectShownWhole } from './support/whole'

// A buyer pays with USDT on BNB Smart Chain, in Chromium, on a real EVM node: Anvil with chain id
// 56 and a block every second, an 18-decimal USDT deployed on it, the shop following it at a depth of
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
  // No shortfall accepted: one base unit short stays unpaid.
  PAYMENT_TOLERANCE: '0',
  PAYMENT_TOLERANCE_PERCENT: '0',
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
  anvil = await spawnAnvil({ chainId: 56, blockTime: 1 })
  ;[deployer, buyerWallet] = await accounts(anvil)
  usdt = await deployStablecoin(anvil, USDT_18)
  await mint(anvil, usdt, deployer, buyerWallet, 1_000n * 10n ** 18n)
  env.EVM_BSC_PROVIDER_1_URL = anvil.url
  env.EVM_BSC_TOKENS = JSON.stringify([{ symbol: 'USDT', contract: usdt, decimals: 18 }])
})
const shop = ownShopForThisFile(env, 'evm')
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
  // The 0x address is shown whole beside its copy button; the wait is this chain's own.
  await expectShownWhole(page, page.getByLabel('Wallet address', { exact: true }))
  await expect(
    page.getByText(
      `Confirmation takes about ${Math.ceil(DEPTH * 0.75)} seconds after your transfer is in a block: ${DEPTH} blocks on BNB Smart Chain.`,
    ),
  ).toBeVisible()
  await expect(page.getByText(/1-5 minutes/)).toHaveCount(0)
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
  // One base unit short: the page says the exact amount missing in USDT, never a cent of dollars.
  await transfer(anvil, usdt, buyerWallet, address as `0x${string}`, units - 1n)
  await expect(
    page.getByText(/Send the remaining 0\.000000000000000001\s+USDT to the same address\./),
  ).toBeVisible({ timeout: 90_000 })
  await expect(page.getByText(/\$0\.01/)).toHaveCount(0)
  // Scanned again, the QR code and the wallet link ask for that one base unit, never the total
  // again; the amount to send says it is the rest.
  const rest = `ethereum:${usdt}@56/transfer?address=${address}&uint256=1`
  await expect(page.getByTestId('wallet-qr')).toHaveAttribute('data-value', rest)
  await expect(page.getByRole('link', { name: 'Open in your wallet' })).toHaveAttribute('href', rest)
  await expect(page.getByRole('heading', { name: 'Still to pay (USDT · BNB Smart Chain)' })).toBeVisible()
  await expect(page.getByLabel('Remaining amount in USDT', { exact: true })).toHaveValue(
    '0.000000000000000001',
  )
  await expect(page.getByLabel('Amount in USDT', { exact: true })).toHaveCount(0)
  await expect(
    page.getByText(
      /^Send exactly the remaining 0\.000000000000000001\s+USDT on BNB Smart Chain \(BEP-20\), not the full total\.$/,
    ),
  ).toBeVisible()
  await expect(page.getByTestId('remaining-link')).toHaveText(
    /^This QR code and the wallet link ask for the remaining 0\.000000000000000001\s+USDT only\.$/,
  )
  await expectShownWhole(page, page.getByLabel('Remaining amount in USDT', { exact: true }))
  await shoot(page, 'payment-evm-short-en')
  for (const lang of ['zh', 'ru'] as const) {
    await page.goto(`/payment?lang=${lang}`)
    await expect(page.getByTestId('pay-amount')).toHaveText(/^0[.,]000000000000000001\s+USDT$/)
    await expect(page.getByTestId('wallet-qr')).toHaveAttribute('data-value', rest)
    await shoot(page, `payment-evm-short-${lang}`)
  }
  await page.goto('/payment?lang=en')
  const asked = await page.getByRole('link', { name: 'Open in your wallet' }).getAttribute('href')
  // The operator's order says the same.
  const admin = await page.context().newPage()
  await adminLogin(admin, PASSWORD)
  await admin
    .getByRole('row')
    .filter({ hasText: 'evm-buyer@example.com' })
    .getByRole('button')
    .first()
    .click()
  const short = units - 1n
  const received = `${short / 10n ** 18n}.${(short % 10n ** 18n).toString().padStart(18, '0')}`
  await expect(
    admin.getByRole('dialog', { name: 'Order details' }).getByTestId('order-shortfall'),
  ).toHaveText(`${received} USDT of ${amount} USDT; 0.000000000000000001 USDT still missing`)
  await shoot(admin, 'admin-order-shortfall-en')
  await admin.close()
  // The buyer sends what the link asks for, and that completes the order.
  await transfer(
    anvil,
    usdt,
    buyerWallet,
    address as `0x${string}`,
    BigInt(/uint256=(\d+)$/.exec(asked ?? '')?.[1] ?? 0),
  )
  await expect(page.getByTestId('payment-detected')).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('payment-detected')).toContainText('confirming on BNB Smart Chain')
  await expect(page.getByTestId('payment-detected')).toContainText(/of \d+ blocks built on your transfer/)
  await shoot(page, 'payment-evm-confirming-en')
  await expect(page.getByRole('heading', { name: 'Payment Successful' })).toBeVisible({ timeout: 60_000 })
  // Behind the dialog the paid state has replaced the instructions: nothing to send or cancel.
  await expect(page.getByRole('heading', { name: 'Payment confirmed' })).toBeAttached()
  await expect(page.getByText(/Send exactly/)).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Cancel Payment' })).toHaveCount(0)
  await shoot(page, 'payment-evm-paid-en')
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

test("the buyer's refund page on BNB Smart Chain: the operator's card, Cancel asked first, the link, the address checked as typed", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000)
  await adminLogin(page, PASSWORD)
  await page.getByRole('searchbox', { name: 'Search orders' }).fill('evm-buyer@example.com')
  const row = page.getByRole('row').filter({ hasText: 'evm-buyer@example.com' })
  await row.getByRole('button').first().click()
  const detail = page.getByRole('dialog', { name: 'Order details' })
  // The ready refund's card: the address whole at 375 and 1440 px, and a QR holding the payment.
  await expect(detail.getByText('Ready: pay it from your wallet')).toBeVisible()
  await expectShownWhole(page, detail.getByRole('textbox', { name: 'Address' }))
  const qr = detail.getByRole('img', { name: /QR code of the payment of/ })
  await expect(qr).toHaveAttribute(
    'aria-label',
    new RegExp(`ethereum:${usdt}@56/transfer\\?address=${buyerWallet}&uint256=\\d+`),
  )
  await page.setViewportSize({ width: 375, height: 812 })
  await shoot(page, 'refund-admin-ready-evm-375')
  await page.setViewportSize({ width: 1280, height: 720 })

  // Cancel refund asks first; keeping it changes nothing, confirming cancels it.
  await detail.getByRole('button', { name: 'Cancel refund' }).click()
  const confirm = page.getByRole('dialog', { name: 'Cancel this refund?' })
  await expect(confirm).toContainText('on BNB Smart Chain')
  await shoot(page, 'refund-admin-cancel-confirm')
  await confirm.getByRole('button', { name: 'Keep the refund' }).click()
  await expect(detail.getByText('Ready: pay it from your wallet')).toBeVisible()
  await detail.getByRole('button', { name: 'Cancel refund' }).click()
  await page
    .getByRole('dialog', { name: 'Cancel this refund?' })
    .getByRole('button', { name: 'Cancel refund' })
    .click()
  await expect(detail.getByText('Cancelled', { exact: true })).toBeVisible()

  // A new refund without an address: the buyer is e-mailed a link, listed by its name, not its id.
  const before = mailsIn(shop.outbox)
  await detail.getByRole('button', { name: 'Refund…' }).click()
  await detail.getByLabel('Reason').fill('Bought the wrong plan')
  await detail.getByRole('button', { name: 'Start refund' }).dblclick()
  await expect(detail.getByText("Waiting for the buyer's address")).toBeVisible()
  await expect(detail.getByText(/Refund link to evm-buyer@example\.com/).first()).toBeVisible({
    timeout: 15_000,
  })
  await expect(detail.getByText(/refund_link:/)).toHaveCount(0)
  const mail = await mailTo(shop.outbox, 'evm-buyer@example.com', /refund/i, 15_000, before)
  const link = /http:\/\/\S+\/refund\/[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')?.[0]
  expect(link).toBeTruthy()

  const context = await interactiveContext(browser)
  const buyer = await context.newPage()
  await buyer.goto(link as string)
  await expect(buyer.getByRole('heading', { name: 'Your refund' })).toBeVisible()
  // One name for the network, and until when the link works.
  await expect(buyer.getByTestId('refund-network')).toHaveText('BNB Smart Chain (BEP-20)')
  await expect(buyer.getByText('This link works until')).toBeVisible()
  await expect(buyer.getByTestId('refund-link-until')).toHaveText(/\d/)
  for (const lang of ['zh', 'ru'] as const) {
    await buyer.goto(`${link}?lang=${lang}`)
    await expect(buyer.getByTestId('refund-network')).toHaveText('BNB Smart Chain (BEP-20)')
    await shoot(buyer, `refund-buyer-evm-${lang}`)
  }
  await buyer.goto(`${link}?lang=en`)
  await shoot(buyer, 'refund-buyer-evm-en')
  // A TRON address is refused as it is typed, in the words the server would use, before Continue.
  const field = buyer.getByLabel('Your BNB Smart Chain address')
  await field.pressSequentially('TLyq')
  await expect(buyer.getByRole('alert')).toHaveText(
    'Enter an address that starts with 0x and has 40 hex digits after it',
  )
  await shoot(buyer, 'refund-buyer-evm-refused')
  await buyer.getByRole('button', { name: 'Continue' }).click()
  await expect(buyer.getByRole('heading', { name: 'Check your address' })).toHaveCount(0)
  await field.fill(buyerWallet)
  await expect(buyer.getByRole('alert')).toHaveCount(0)
  await buyer.getByRole('button', { name: 'Continue' }).click()
  await expect(buyer.getByRole('heading', { name: 'Check your address' })).toBeVisible()
  await expect(buyer.getByText(/We will send [\d.]+\s+USDT on BNB Smart Chain \(BEP-20\) to:/)).toBeVisible()
  await expect(buyer.getByTestId('refund-confirm-address')).toHaveText(buyerWallet)
  await shoot(buyer, 'refund-buyer-evm-confirm')
  await buyer.getByRole('button', { name: 'Yes, send it here' }).click()
  await expect(buyer.getByRole('heading', { name: 'Thank you' })).toBeVisible()
  await shoot(buyer, 'refund-buyer-evm-done')
  await context.close()
  await expect(detail.getByText('Ready: pay it from your wallet')).toBeVisible({ timeout: 15_000 })
})

test('the admin tabs are all in view without sideways scrolling from 1024 px, and behind the menu below', async ({
  page,
}) => {
  await adminLogin(page, PASSWORD)
  for (const width of [1024, 1280, 1440]) {
    await page.setViewportSize({ width, height: 800 })
    const nav = page.getByRole('navigation', { name: 'Admin', exact: true })
    await expect(nav).toBeVisible()
    const links = nav.getByRole('link')
    await expect(links).toHaveCount(14)
    for (const link of await links.all()) {
      const box = await link.boundingBox()
      expect(
        box && box.x >= 0 && box.x + box.width <= width,
        `${await link.textContent()} at ${width} px`,
      ).toBe(true)
    }
    expect(await nav.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  }
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.screenshot({ path: 'screenshots/admin-nav-1440.png' })
  await page.setViewportSize({ width: 1024, height: 800 })
  await page.screenshot({ path: 'screenshots/admin-nav-1024.png' })
  await page.setViewportSize({ width: 1000, height: 800 })
  await expect(page.getByRole('navigation', { name: 'Admin', exact: true })).toBeHidden()
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible()
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
