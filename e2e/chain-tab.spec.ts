import type { ChainsAnswer } from '../src/shared/chain-overview'
import { type Anvil, spawnAnvil } from '../tests/support/evm/anvil'
import { deployStablecoin, USDT_18 } from '../tests/support/evm/tokens'
import { ownShopForThisFile } from './support/own-shop'
import { shoot } from './support/screens'
import { adminLogin } from './support/shop'
import { expect, type Page, test } from './support/test'

// The admin's Chain tab with TRON and BNB Smart Chain (a real Anvil node that mines only when the
// test asks, followed at a depth of 3), read as the operator reads it: each chain's row, the TRON
// providers' panel labelled as TRON's, and a BNB Smart Chain follower that stopped at a
// reorganisation deeper than the depth: the row says so, why, since when and what to do, and its
// provider's chip does not read "Healthy".
const PASSWORD = 'chain-tab-Password-1'
const DEPTH = 3
const env: Record<string, string> = {
  ADMIN_PASSWORD: PASSWORD,
  EVM_BSC_ENABLED: 'true',
  EVM_BSC_CONFIRMATIONS: String(DEPTH),
  EVM_BSC_POLL_MS: '300',
  // The follower reads every block while no order is open (the idle pace would wait 45 s).
  FOLLOWER_IDLE_EVERY_MS: '0',
}
let anvil: Anvil

test.beforeAll(async () => {
  test.setTimeout(120_000)
  // On a port found free (unless the runner sets ANVIL_PORTS_FROM), like the shop and its devchain.
  anvil = await spawnAnvil({ chainId: 56 })
  const usdt = await deployStablecoin(anvil, USDT_18)
  await anvil.client.mine({ blocks: 20 })
  env.EVM_BSC_PROVIDER_1_URL = anvil.url
  env.EVM_BSC_TOKENS = JSON.stringify([{ symbol: 'USDT', contract: usdt, decimals: 18 }])
})
ownShopForThisFile(env, 'chain tab')
test.afterAll(async () => {
  await anvil?.stop()
})

async function bscRow(page: Page) {
  const answer = await page.request.post('/rpc/secure_fetch_chains', { data: {} })
  return ((await answer.json()) as ChainsAnswer).chains.find((c) => c.chain === 'bsc')
}

test('each chain has its row, the TRON providers are labelled TRON’s, and a stopped follower shows on its row', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await adminLogin(page, PASSWORD)
  await page.goto('/admin/chain')
  const bsc = page.getByRole('listitem', { name: 'BNB Smart Chain' })
  const tron = page.getByRole('listitem', { name: 'TRON', exact: true })
  await expect(bsc).toContainText('Following')
  await expect(tron).toBeVisible()
  await expect(bsc).toContainText('Final after3 blocks')
  // The lower panel is TRON's, and says so now that another chain is enabled.
  await expect(page.getByRole('heading', { name: 'Chain providers · TRON' })).toBeVisible()
  await expect(
    page.getByText("The providers of TRON in detail; every chain's summary is above."),
  ).toBeVisible()
  // The follower has recorded up to the final head before the chain is reorganised under it.
  const head = Number(await anvil.client.getBlockNumber())
  await expect.poll(async () => (await bscRow(page))?.recorded, { timeout: 30_000 }).toBe(head - DEPTH + 1)
  await expect(bsc.getByRole('alert')).toHaveCount(0)
  await shoot(page, 'admin-chain-tab-evm')

  // Deeper than the depth: the block after the recorded one is replaced, then the chain goes on.
  await anvil.client.request({ method: 'anvil_reorg', params: [DEPTH + 2, []] } as never)
  await anvil.client.mine({ blocks: DEPTH + 1 })
  await expect(bsc).toContainText('Stopped', { timeout: 30_000 })
  const stop = bsc.getByRole('alert')
  await expect(stop).toContainText(/Payment detection on this chain stopped at .+: .*does not follow/)
  await expect(stop).toContainText(
    `does not follow block ${head - DEPTH + 1}, the last one the shop recorded`,
  )
  await expect(stop).toContainText('npm run follower:reset -- bsc <block>')
  // Its provider answers, but the chain is stopped: its chip does not read "Healthy".
  await expect(bsc.getByRole('listitem')).toContainText(['Chain stopped'])
  await expect(bsc.getByRole('listitem').filter({ hasText: 'Healthy' })).toHaveCount(0)
  // TRON carries on: its row says nothing of it.
  await expect(tron.getByRole('alert')).toHaveCount(0)
  await shoot(page, 'admin-chain-tab-evm-stopped')
  for (const lang of ['zh', 'ru'] as const) {
    await page.goto(`/admin/chain?lang=${lang}`)
    await expect(page.getByRole('listitem', { name: 'BNB Smart Chain' }).getByRole('alert')).toBeVisible()
    await shoot(page, `admin-chain-tab-evm-stopped-${lang}`)
  }
})

test('the dashboard shows each family’s part of the pool: TRON’s demo addresses, and no EVM address yet', async ({
  page,
}) => {
  await adminLogin(page, PASSWORD)
  await page.goto('/admin/dashboard')
  await expect(page.getByText('Free addresses · TRON')).toBeVisible()
  await expect(page.getByText('Free addresses · EVM')).toBeVisible()
  await expect(page.getByTestId('pool-forecast-evm')).toHaveText(
    'No EVM wallet addresses: no order on those networks can be placed. Add EVM addresses in the Wallets tab.',
  )
  await expect(page.getByTestId('pool-forecast-evm')).toHaveAttribute('role', 'alert')
  await expect(page.getByTestId('pool-forecast-tron')).toContainText('TRON: ')
  await shoot(page, 'admin-dashboard-pool-by-family')
})
