import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testAddresses } from '../../../tests/support/payment-fixture'
import { createTestDatabase, engines, type TestDatabase } from '../../../tests/support/test-db'
import { freePort } from '../../../tests/support/wait'
import { createDevchain, type Devchain } from '../../../tools/devchain/devchain'
import { addWalletAddresses } from '../wallets/wallets.repo'

// Two real server processes (src/server/main.ts) on one PostgreSQL database, watching one devchain.

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
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      TRON_API_URL: chain.url,
      PRICE_SOURCE: 'fixed:0.25',
      LOG_LEVEL: 'warn',
      CHECKOUT_PENDING_PER_CLIENT: '1000',
      CHECKOUT_CREATIONS_PER_MINUTE: '1000',
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

describe.skipIf(!engines.includes('postgres'))('two server processes on one PostgreSQL', () => {
  let chain: Devchain
  let database: TestDatabase
  const shops: Shop[] = []

  beforeAll(async () => {
    chain = await createDevchain()
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
            if (shop.child.exitCode !== null) return resolve()
            shop.child.once('exit', () => resolve())
            shop.child.kill('SIGTERM')
          }),
      ),
    )
    await database?.close()
    await chain?.close()
  })

  it('confirms every payment exactly once', async () => {
    const [a, b] = shops as [Shop, Shop]
    const { products } = (await call(a, 'fetch_products', {})) as {
      products: { id: number; price: number; is_free: boolean }[]
    }
    const product = products.find((p) => !p.is_free && p.price > 0) as { id: number; price: number }
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
    for (const o of orders) chain.transfer({ to: o.address, amount: product.price.toFixed(2) })

    const until = Date.now() + 30_000
    for (;;) {
      const states = await Promise.all(
        orders.map((o) => call(b, 'secure_get_order_status', { p_order_id: o.id, p_order_secret: o.secret })),
      )
      if (states.every((s) => s.status === 'paid')) break
      if (Date.now() > until) throw new Error(`not all paid: ${JSON.stringify(states.map((s) => s.status))}`)
      await new Promise((r) => setTimeout(r, 200))
    }

    const rows = (await database.db.execute(sql`
      select o.id, count(p.id)::int as payments, count(distinct o.access_token)::int as tokens
      from orders o left join payments p on p.order_id = o.id group by o.id`)) as unknown as {
      rows: { id: string; payments: number; tokens: number }[]
    }
    expect(rows.rows).toHaveLength(10)
    for (const row of rows.rows) expect(row).toMatchObject({ payments: 1, tokens: 1 })
    // One e-mail per order, written by whichever process claimed it (no SMTP_URL: .eml files).
    const mailsWritten = () =>
      shops.flatMap((shop) => {
        const dir = join(shop.dataDir, 'outbox')
        return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.eml')) : []
      })
    const mailUntil = Date.now() + 20_000
    while (mailsWritten().length < 10 && Date.now() < mailUntil) await new Promise((r) => setTimeout(r, 200))
    await new Promise((r) => setTimeout(r, 500))
    expect(mailsWritten()).toHaveLength(10)
  }, 60_000)
})
