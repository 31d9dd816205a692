import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testAddresses } from '../../../tests/support/payment-fixture'
import { createTestDatabase, postgresOnly, type TestDatabase } from '../../../tests/support/test-db'
import { freePort, waitFor } from '../../../tests/support/wait'
import { createDevchain, type Devchain } from '../../../tools/devchain/devchain'
import { addWalletAddresses } from '../wallets/wallets.repo'

// Two real server processes (src/server/server.ts) on one PostgreSQL database, following one devchain:
// exactly one follows the chain at a time, and when it is killed the other takes over from the
// checkpoint, with nothing missed or counted twice.

interface Shop {
  url: string
  dataDir: string
  child: ChildProcess
  output: string[]
}

async function startShop(databaseUrl: string, chain: Devchain): Promise<Shop> {
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), 'stablecart-proc-'))
  const output: string[] = []
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      TRON_API_URL: chain.url,
      PRICE_SOURCE: 'fixed:0.25',
      LOG_LEVEL: 'warn',
      EXPLORER_MAX_RPS: '40',
      FOLLOWER_BATCH_BLOCKS: '10',
      FOLLOWER_INTERVAL_MS: '100',
      CHECKOUT_PENDING_PER_CLIENT: '1000',
      CHECKOUT_CREATIONS_PER_MINUTE: '1000',
      CHECKOUT_HELD_PER_NETWORK: '1000',
      CHECKOUT_RESERVE_PERCENT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (d) => output.push(String(d)))
  child.stderr?.on('data', (d) => output.push(String(d)))
  const url = `http://127.0.0.1:${port}`
  const until = Date.now() + 30_000
  for (;;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, dataDir, child, output }
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > until) {
      throw new Error(`the shop did not start:\n${output.join('')}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
}

async function call(shop: Shop, name: string, payload: unknown) {
  const response = await fetch(`${shop.url}/rpc/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  })
  return (await response.json()) as Record<string, unknown>
}

describe.skipIf(postgresOnly.length === 0)('two server processes on one PostgreSQL', () => {
  let chain: Devchain
  let database: TestDatabase
  const shops: Shop[] = []

  beforeAll(async () => {
    // Blocks are made by the test, each with unrelated traffic, so every block costs a receipt call.
    chain = await createDevchain({ autoMine: false, blockIntervalMs: 100, solidifyLag: 3, noisePerBlock: 2 })
    chain.mine(5)
    database = await createTestDatabase('postgres')
    await addWalletAddresses(database.db, testAddresses(12, 'two processes'))
    shops.push(
      ...(await Promise.all([
        startShop(database.url as string, chain),
        startShop(database.url as string, chain),
      ])),
    )
  }, 60_000)

  afterAll(async () => {
    await Promise.all(
      shops.map(
        (shop) =>
          new Promise<void>((resolve) => {
            if (shop.child.exitCode !== null || shop.child.signalCode !== null) return resolve()
            shop.child.once('exit', () => resolve())
            shop.child.kill('SIGTERM')
          }),
      ),
    )
    await database?.close()
    await chain?.close()
  })

  const checkpoint = async () => {
    const result = (await database.db.execute(
      sql`select checkpoint_block, leader from follower_state`,
    )) as unknown as {
      rows: { checkpoint_block: string; leader: string | null }[]
    }
    const row = result.rows[0]
    return { block: Number(row?.checkpoint_block ?? -1), leader: row?.leader ?? null }
  }

  it('pays every order exactly once when the following process is killed mid-range', async () => {
    const [a, b] = shops as [Shop, Shop]
    const { products } = (await call(a, 'fetch_products', {})) as {
      products: { id: number; price: number; is_free: boolean }[]
    }
    const product = products.find((p) => !p.is_free && p.price > 0) as { id: number; price: number }
    // One process starts following (at the solidified head) before any order exists.
    await waitFor('a leader', async () => (await checkpoint()).block > 0)
    const orders: { id: string; address: string; secret: string }[] = []
    for (let i = 0; i < 10; i++) {
      const body = await call(i % 2 ? a : b, 'secure_create_order', {
        p_email: `buyer${i}@example.com`,
        p_items: [{ product: { id: product.id }, quantity: 1 }],
        p_total: product.price,
      })
      expect(body.success).toBe(true)
      orders.push({
        id: body.order_id as string,
        address: body.wallet_address as string,
        secret: body.order_secret as string,
      })
    }
    // 300 blocks at once, a payment every 30: a range the leader needs many passes to read.
    const start = (await checkpoint()).block
    for (const o of orders) {
      chain.transfer({ to: o.address, amount: product.price.toFixed(2) })
      chain.mine(30)
    }
    chain.mine(5)
    await waitFor('the leader to be mid-range', async () => (await checkpoint()).block > start + 30, 30_000)
    const { leader } = await checkpoint()
    const victim = shops.find((shop) => leader?.includes(`:${shop.child.pid}:`)) as Shop
    expect(victim).toBeDefined()
    victim.child.kill('SIGKILL')
    const killedAt = (await checkpoint()).block
    const survivor = victim === a ? b : a

    const takeover = Date.now()
    await waitFor(
      'another process to lead',
      async () => {
        const now = await checkpoint()
        return now.leader !== leader && now.block > killedAt
      },
      20_000,
    )
    expect(Date.now() - takeover).toBeLessThan(15_000)

    await waitFor(
      'every order paid',
      async () => {
        const states = await Promise.all(
          orders.map((o) =>
            call(survivor, 'secure_get_order_status', { p_order_id: o.id, p_order_secret: o.secret }),
          ),
        )
        return states.every((s) => s.status === 'paid')
      },
      60_000,
    )

    const rows = (await database.db.execute(sql`
      select o.id, count(p.id)::int as payments, count(distinct o.access_token)::int as tokens
      from orders o left join payments p on p.order_id = o.id group by o.id`)) as unknown as {
      rows: { id: string; payments: number; tokens: number }[]
    }
    expect(rows.rows).toHaveLength(10)
    for (const row of rows.rows) expect(row).toMatchObject({ payments: 1, tokens: 1 })
    const mails = (await database.db.execute(sql`select count(*)::int as n from mail_outbox`)) as unknown as {
      rows: { n: number }[]
    }
    expect(mails.rows[0]?.n).toBe(10)
  }, 120_000)
})
