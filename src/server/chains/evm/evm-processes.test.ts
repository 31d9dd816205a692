import { mkdtempSync, rmSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { type Address, getAddress, type Hash } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Anvil, spawnAnvil } from '../../../../tests/support/evm/anvil'
import { accounts, deployStablecoin, mint, transfer, USDT_18 } from '../../../../tests/support/evm/tokens'
import { type Received, startReceiver } from '../../../../tests/support/http-receiver'
import { spawnShop } from '../../../../tests/support/spawn-shop'
import { testAddresses } from '../../../../tests/support/test-addresses'
import { createTestDatabase, type Engine, engines } from '../../../../tests/support/test-db'
import { freePort, waitFor } from '../../../../tests/support/wait'
import { createDevchain } from '../../../../tools/devchain/devchain'
import { type Database, openDatabase } from '../../db/client'
import { addWalletAddresses } from '../../wallets/wallets.repo'

// The real server in its own process (main.ts: a follower and a sighting watcher per chain on
// their own loops) against Anvil: killed with SIGKILL in the middle of a range and started again,
// and with one EVM chain's providers all down while TRON orders are paid.

const DEPTH = 2
const E18 = 10n ** 18n

/** A database for a spawned shop: a PGlite folder (closed before the shop opens it) or a PostgreSQL one. */
async function shopDatabase(
  engine: Engine,
  evm: Address[],
  tron: string[],
): Promise<{ env: Record<string, string>; open: () => Promise<Database>; done: () => Promise<void> }> {
  if (engine === 'postgres') {
    const db = await createTestDatabase('postgres')
    await addWalletAddresses(db.db, [...tron, ...evm.map((address) => ({ address, family: 'evm' as const }))])
    return {
      env: { DATABASE_URL: db.url as string },
      open: async () => db as Database,
      done: () => db.close(),
    }
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'stablecart-evm-'))
  const seed = await openDatabase({ dataDir })
  await addWalletAddresses(seed.db, [...tron, ...evm.map((address) => ({ address, family: 'evm' as const }))])
  await seed.close()
  return {
    env: { DATA_DIR: dataDir },
    open: () => openDatabase({ dataDir }),
    done: async () => rmSync(dataDir, { recursive: true, force: true }),
  }
}

async function post(url: string, name: string, body: unknown) {
  const res = await fetch(`${url}/rpc/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return (await res.json()) as Record<string, unknown>
}

async function order(url: string, chain: string, token: string) {
  const products = (await post(url, 'fetch_products', {})).products as {
    id: number
    price: number
    is_free: boolean
  }[]
  const product = products.filter((p) => !p.is_free && p.price > 0).sort((a, b) => a.price - b.price)[0]
  if (!product) throw new Error('no product')
  const body = await post(url, 'secure_create_order', {
    p_email: 'buyer@example.com',
    p_items: [{ product: { id: product.id }, quantity: 1 }],
    p_total: product.price,
    p_chain: chain,
    p_token: token,
  })
  if (body.success !== true) throw new Error(JSON.stringify(body))
  return {
    id: body.order_id as string,
    secret: body.order_secret as string,
    address: body.wallet_address as string,
    total: product.price,
  }
}

const statusOf = async (url: string, o: { id: string; secret: string }) =>
  post(url, 'secure_get_order_status', { p_order_id: o.id, p_order_secret: o.secret })

describe.each(engines)('EVM in the running server (%s)', (engine) => {
  let anvil: Anvil
  let buyer: Address
  let usdt: Address
  beforeAll(async () => {
    anvil = await spawnAnvil({ chainId: 56 })
    let deployer: Address
    ;[deployer, buyer] = await accounts(anvil)
    usdt = await deployStablecoin(anvil, USDT_18)
    await mint(anvil, usdt, deployer, buyer, 10n ** 30n)
  }, 120_000)
  afterAll(async () => {
    await anvil?.stop()
  })

  it('killed with SIGKILL in the middle of a range and started again, records each transfer exactly once', async () => {
    // eth_getLogs for the range holding the second payment is held until the test lets it go.
    let holdFrom: number | null = null
    let held = false
    const proxy = await startReceiver((req: Received, res: ServerResponse) => {
      void (async () => {
        const calls = [JSON.parse(req.body)].flat() as { method: string; params: { fromBlock?: string }[] }[]
        const logs = calls.find((c) => c.method === 'eth_getLogs')
        if (holdFrom !== null && logs && Number(logs.params[0]?.fromBlock) >= holdFrom) {
          held = true
          return // never answered: the shop is killed meanwhile
        }
        const upstream = await fetch(anvil.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: req.body,
        })
        res.writeHead(upstream.status, { 'content-type': 'application/json' })
        res.end(await upstream.text())
      })()
    })
    const evm = Array.from({ length: 3 }, (_, i) => getAddress(`0x${(i + 1).toString(16).padStart(40, 'a')}`))
    const store = await shopDatabase(engine, evm, testAddresses(2, `kill-${engine}-${Math.random()}`))
    const env = {
      ...store.env,
      EVM_BSC_ENABLED: 'true',
      EVM_BSC_PROVIDER_1_URL: proxy.url,
      EVM_BSC_PROVIDER_1_MAX_BLOCKS: '1',
      EVM_BSC_CONFIRMATIONS: String(DEPTH),
      EVM_BSC_POLL_MS: '200',
      EVM_BSC_TOKENS: JSON.stringify([{ symbol: 'USDT', contract: usdt, decimals: 18 }]),
      PORT: String(await freePort()),
    }
    let shop = await spawnShop(env)
    try {
      const o = await order(shop.url, 'bsc', 'USDT')
      // Anvil stamps blocks in whole seconds and can be up to a second behind the shop: a transfer sent
      // the instant the order exists may sit in a block stamped before the address's lease began, and
      // block time decides (no_order). Wait until the node's next block is stamped after the order.
      const placedAt = Date.now()
      await waitFor('the node clock to pass the order', async () => {
        const next = await anvil.client.getBlock({ blockTag: 'pending' })
        return Number(next.timestamp) * 1000 + 999 >= placedAt
      })
      // Five dollars short first (the order stays open), then the rest.
      const cents = BigInt(Math.round(o.total * 100))
      const first = await transfer(anvil, usdt, buyer, o.address as Address, ((cents - 500n) * E18) / 100n)
      await anvil.client.mine({ blocks: DEPTH })
      const firstPart = Math.round((o.total - 5) * 100) / 100
      await waitFor(
        'the first part recorded',
        async () => (await statusOf(shop.url, o)).amount_received === firstPart,
        60_000,
      )
      const second = await transfer(anvil, usdt, buyer, o.address as Address, 5n * E18)
      const block = Number((await anvil.client.getTransactionReceipt({ hash: second })).blockNumber)
      holdFrom = block
      await anvil.client.mine({ blocks: DEPTH })
      await waitFor('the follower in the middle of the range', () => held, 60_000)
      await shop.kill()
      holdFrom = null
      shop = await spawnShop(env)
      await waitFor(
        'paid after the restart',
        async () => (await statusOf(shop.url, o)).status === 'paid',
        60_000,
      )
      await shop.stop()
      const db = await store.open()
      const rows = (await db.db.execute(sql`select tx_id from payments order by id`)) as unknown as {
        rows: { tx_id: Hash }[]
      }
      expect(rows.rows.map((r) => r.tx_id)).toEqual([first, second])
      await db.close()
    } finally {
      await shop.stop()
      await proxy.close()
      await store.done()
    }
  }, 240_000)

  it('with every provider of BNB Smart Chain down, a TRON order is still paid', async () => {
    const devchain = await createDevchain({ priceUsd: '0.25', blockIntervalMs: 300, solidifyLag: 2 })
    const tron = testAddresses(2, `down-${engine}-${Math.random()}`)
    const store = await shopDatabase(engine, [getAddress(`0x${'b'.repeat(40)}`)], tron)
    const dead = `http://127.0.0.1:${await freePort()}`
    const shop = await spawnShop({
      ...store.env,
      TRON_API_URL: devchain.url,
      EXPLORER_MAX_RPS: '100',
      CHAIN_BLOCK_MS: '300',
      EVM_BSC_ENABLED: 'true',
      EVM_BSC_PROVIDER_1_URL: dead,
      EVM_BSC_PROVIDER_2_URL: `http://127.0.0.1:${await freePort()}`,
      PORT: String(await freePort()),
    })
    try {
      const o = await order(shop.url, 'tron', 'USDT')
      devchain.transfer({ to: o.address, amount: o.total.toFixed(2) })
      await waitFor(
        'the TRON order paid',
        async () => (await statusOf(shop.url, o)).status === 'paid',
        90_000,
      )
      expect(shop.output()).toMatch(/bsc/)
    } finally {
      await shop.stop()
      await devchain.close()
      await store.done()
    }
  }, 240_000)
})
