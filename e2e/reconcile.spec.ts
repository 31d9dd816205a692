import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Anvil } from '../tests/support/evm/anvil'
import { spawnAnvil } from '../tests/support/evm/anvil'
import { accounts, deployStablecoin, mint, transfer, USDT_18 } from '../tests/support/evm/tokens'
import { ownShopForThisFile } from './support/own-shop'
import { adminLogin } from './support/shop'
import { expect, type Page, test } from './support/test'

// The operator reconciles BNB Smart Chain on the Orders tab, in Chromium, against a real EVM node
// (Anvil, chain id 56, 18-decimal USDT, a counterfeit USDT sent to the same address): a network
// choice beside the period, the ledger's figures with the token's decimals, a check of the address
// against the chain that says the 30-day period is too long for one check, then, for today, that the
// chain ties with the ledger. By keyboard; screenshots at 375 px and 1440 px.
const PASSWORD = 'reconcile-e2e-Password-1'
const DEPTH = 2
// The panel alone, into the git-ignored screenshots/ folder beside every other spec's.
const shots = 'screenshots'
const env: Record<string, string> = {
  ADMIN_PASSWORD: PASSWORD,
  PAYMENT_WINDOW_MINUTES: '10',
  EVM_BSC_ENABLED: 'true',
  EVM_BSC_CONFIRMATIONS: String(DEPTH),
  EVM_BSC_POLL_MS: '500',
  // A provider that answers 10,000 blocks a request: a day of BNB Smart Chain is a few requests.
  EVM_BSC_PROVIDER_1_MAX_BLOCKS: '10000',
}
let anvil: Anvil
let usdt: `0x${string}`
let fake: `0x${string}`
let buyer: `0x${string}`
const pool = ['0xa0Ee7A142d267C1f36714E4a8F75612F20a79720']

test.beforeAll(async () => {
  test.setTimeout(120_000)
  // On a port found free (unless the runner sets ANVIL_PORTS_FROM), like the shop and its devchain.
  anvil = await spawnAnvil({ chainId: 56, blockTime: 1 })
  let deployer: `0x${string}`
  ;[deployer, buyer] = await accounts(anvil)
  usdt = await deployStablecoin(anvil, USDT_18)
  fake = await deployStablecoin(anvil, USDT_18)
  for (const token of [usdt, fake]) await mint(anvil, token, deployer, buyer, 1_000n * 10n ** 18n)
  env.EVM_BSC_PROVIDER_1_URL = anvil.url
  env.EVM_BSC_TOKENS = JSON.stringify([{ symbol: 'USDT', contract: usdt, decimals: 18 }])
})
ownShopForThisFile(env, 'reconcile')
test.afterAll(async () => {
  await anvil?.stop()
})

/** The Reconciliation panel, by its heading in the language shown. */
const panelOf = (page: Page, title = 'Reconciliation') =>
  page.locator('section').filter({ has: page.getByRole('heading', { name: title, exact: true }) })

async function shoot(page: Page, name: string, title?: string) {
  mkdirSync(shots, { recursive: true })
  for (const [width, height] of [
    [375, 812],
    [1440, 900],
  ] as const) {
    await page.setViewportSize({ width, height })
    await page.evaluate(async () => {
      await document.fonts.ready
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
    })
    const panel = panelOf(page, title)
    await panel.scrollIntoViewIfNeeded()
    await panel.screenshot({ path: join(shots, `reconcile-${name}-${width}.png`) })
  }
  await page.setViewportSize({ width: 1280, height: 720 })
}

test('an order paid in 18-decimal USDT on BNB Smart Chain is reconciled against the chain', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await adminLogin(page, PASSWORD)
  const added = await page.evaluate(async (addresses) => {
    const response = await fetch('/rpc/secure_add_wallet_addresses', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ p_addresses: addresses.join('\n') }),
    })
    return response.json()
  }, pool)
  expect(added).toMatchObject({ success: true, added_count: 1 })

  const placed = await page.request.post('/rpc/secure_create_order', {
    data: {
      p_email: 'reconcile@example.com',
      p_items: [{ product: { id: 1 }, quantity: 1 }],
      p_total: 49.99,
      p_chain: 'bsc',
      p_token: 'USDT',
    },
  })
  const order = await placed.json()
  expect(order).toMatchObject({ success: true, wallet_address: pool[0] })
  // One wei over the price: the last of 18 decimals must show. And a counterfeit USDT, which never counts.
  await transfer(anvil, usdt, buyer, pool[0] as `0x${string}`, 4999n * 10n ** 16n + 1n)
  await transfer(anvil, fake, buyer, pool[0] as `0x${string}`, 500n * 10n ** 18n)
  await expect
    .poll(
      async () => {
        const status = await page.request.post('/rpc/secure_get_order_status', {
          data: { p_order_id: order.order_id, p_order_secret: order.order_secret },
        })
        return (await status.json()).status
      },
      { timeout: 60_000 },
    )
    .toBe('paid')

  await page.goto('/admin')
  const panel = panelOf(page)
  // TRON first: nothing was paid there.
  await expect(panel.getByText('No transfers to your addresses in this period')).toBeVisible()
  // Two chains: the choice of network, by keyboard.
  const network = panel.getByLabel('Network')
  await expect(network).toHaveValue('tron')
  await network.focus()
  await page.keyboard.press('ArrowDown')
  await expect(network).toHaveValue('bsc')
  await expect(panel.getByText('49.990000000000000001 USDT in 1 transfer(s)')).toBeVisible()
  await expect(panel.getByText('The ledger ties out')).toBeVisible()
  await expect(panel.getByText('credited 49.990000000000000001 USDT')).toBeVisible()

  // Thirty days of BNB Smart Chain is more than one check may ask.
  const check = panel.getByRole('button', { name: `Check ${pool[0]} against the chain` })
  await check.focus()
  await page.keyboard.press('Enter')
  await expect(panel.getByRole('alert')).toContainText(
    'This period is too long to check against BNB Smart Chain in one go.',
  )
  await shoot(page, 'narrow-en')

  // Today only: the chain's figure ties with the ledger (the counterfeit is not counted).
  const today = new Date().toISOString().slice(0, 10)
  await panel.getByLabel('From').fill(today)
  await expect(panel.getByRole('alert')).toHaveCount(0)
  await expect(panel.getByText('49.990000000000000001 USDT in 1 transfer(s)')).toBeVisible()
  await check.focus()
  await page.keyboard.press('Enter')
  await expect(panel.getByText('chain 49.990000000000000001 USDT — ties out')).toBeVisible({
    timeout: 30_000,
  })
  await shoot(page, 'ties-en')

  for (const [lang, title] of [
    ['zh', '对账'],
    ['ru', 'Сверка'],
  ] as const) {
    await page.goto(`/admin?lang=${lang}`)
    const translated = panelOf(page, title)
    await translated.getByRole('combobox').selectOption('bsc')
    await expect(translated.getByText(/49[.,]990000000000000001/).first()).toBeVisible()
    await shoot(page, `bsc-${lang}`, title)
  }
})
