import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testAddresses } from '../../../tests/support/test-addresses'
import { adminSession, createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { paymentNetworksAnswerSchema } from '../../shared/network-schemas'
import { networkOptions } from '../../shared/networks'
import { seedOnce } from '../db/seed'

// EVM addresses in the pool beside TRON ones: added by the admin over HTTP (checksum checked, each
// bad line named), stored in their checksum form with their family, and leased only to orders of a
// network of that family.

const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'

describe.each(engines)('EVM addresses in the pool (%s)', (engine) => {
  let t: TestApp
  let headers: Record<string, string>
  const [tron] = testAddresses(1, `evm-pool-${Math.random()}`)
  beforeAll(async () => {
    t = await createTestApp(engine, {
      ADMIN_PASSWORD: 'correct horse battery',
      // Enabled, never asked: placing an order does not read the chain.
      EVM_BSC_ENABLED: 'true',
      EVM_BSC_PROVIDER_1_URL: 'http://127.0.0.1:9',
    })
    await seedOnce(t.database.db)
    await t.database.db.execute(sql`delete from wallet_addresses`)
    headers = await adminSession(t)
  })
  afterAll(async () => {
    await t?.close()
  })

  const add = (p_addresses: string) => rpc(t.app, 'secure_add_wallet_addresses', { p_addresses }, headers)

  it('offers the enabled networks and their stablecoins, TRON first', async () => {
    const { networks } = paymentNetworksAnswerSchema.parse(
      (await rpc(t.app, 'secure_get_payment_networks')).body,
    )
    expect(networks).toEqual([
      {
        chain: 'tron',
        family: 'tron',
        tokens: [
          { symbol: 'USDT', decimals: 6 },
          { symbol: 'TRX', decimals: 6 },
        ],
        confirmations: null,
      },
      {
        chain: 'bsc',
        family: 'evm',
        tokens: [
          { symbol: 'USDT', decimals: 18 },
          { symbol: 'USDC', decimals: 18 },
        ],
        confirmations: 15,
      },
    ])
    // The checkout's choices: each network's stablecoins (TRX stays an alternative on TRON's page).
    expect(networkOptions(networks)).toEqual([
      { chain: 'tron', token: 'USDT' },
      { chain: 'bsc', token: 'USDT' },
      { chain: 'bsc', token: 'USDC' },
    ])
  })

  it('refuses a batch with a bad line, naming a checksum typo as such; adds nothing', async () => {
    const typo = '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
    expect((await add(`${tron}\n${typo}\n0x1234`)).body).toEqual({
      success: false,
      added_count: 0,
      error: `Invalid wallet address format: ${typo} (EVM checksum does not match), 0x1234`,
    })
    expect(await t.database.db.execute(sql`select address from wallet_addresses`)).toMatchObject({ rows: [] })
  })

  it('adds TRON and EVM lines, the EVM one in checksum form, and leases each to orders of its family', async () => {
    expect((await add(`${tron}\n${EVM.toLowerCase()}`)).body).toEqual({ success: true, added_count: 2 })
    const rows = (await t.database.db.execute(
      sql`select address, family from wallet_addresses order by family`,
    )) as unknown as { rows: { address: string; family: string }[] }
    expect(rows.rows).toEqual([
      { address: EVM, family: 'evm' },
      { address: tron, family: 'tron' },
    ])
    const products = (await rpc(t.app, 'fetch_products')).body.products as {
      id: number
      price: number
      is_free: boolean
    }[]
    const product = products.find((p) => !p.is_free && p.price > 0) as { id: number; price: number }
    const place = (chain: string, token: string) =>
      rpc(t.app, 'secure_create_order', {
        p_email: 'buyer@example.com',
        p_items: [{ product: { id: product.id }, quantity: 1 }],
        p_total: product.price,
        p_chain: chain,
        p_token: token,
      })
    // A TRON address offered by secure_get_wallet_address is no use to an EVM order: it gets the EVM one.
    const bsc = await place('bsc', 'USDC')
    expect(bsc.body).toMatchObject({ success: true, wallet_address: EVM, chain: 'bsc', token: 'USDC' })
    const second = await place('bsc', 'USDT')
    expect(second.body).toEqual({
      success: false,
      error: 'Payment system is temporarily unavailable. Please try again later.',
    })
    const onTron = await place('tron', 'USDT')
    expect(onTron.body).toMatchObject({
      success: true,
      wallet_address: tron,
      chain: 'tron',
      payment_uri: tron,
    })
  })
})
