import { sql } from 'drizzle-orm'
import { seedOnce } from '../../src/server/db/seed'
import { createPaymentWatcher, type PaymentWatcher } from '../../src/server/payments/payment-watcher'
import { createTronClient } from '../../src/server/payments/tron-client'
import { addWalletAddresses } from '../../src/server/wallets/wallets.repo'
import { createDevchain, type Devchain } from '../../tools/devchain/devchain'
import { testAddresses } from './test-addresses'
import { createTestApp, rpc, type TestApp } from './test-app'
import { createTestDatabase, type Engine } from './test-db'

export { testAddresses }

export interface PlacedOrder {
  id: string
  address: string
  /** Dollars, as the buyer is asked to pay. */
  total: number
  trxAmount: string | null
}

export interface PaymentFixture {
  t: TestApp
  chain: Devchain
  /** A watcher polling every due order on drain(); fast back-off for fault tests. */
  watcher: PaymentWatcher
  /** Products that cost money, cheapest first. */
  products: { id: number; price: number }[]
  placeOrder(quantity?: number, productIndex?: number): Promise<PlacedOrder>
  /** The secret secure_create_order answered for the order (what the buyer's browser keeps). */
  secretOf(id: string): string | undefined
  order(id: string): Promise<Record<string, unknown>>
  payments(where?: 'all' | 'unmatched'): Promise<Record<string, unknown>[]>
  /** Pretends the order was placed `minutes` ago (window and grace move with it). */
  age(id: string, minutes: number): Promise<void>
  close(): Promise<void>
}

export async function createPaymentFixture(
  engine: Engine,
  env: Record<string, string> = {},
): Promise<PaymentFixture> {
  const chain = await createDevchain({ priceUsd: '0.25' })
  const database = await createTestDatabase(engine, { poolSize: 10 })
  await seedOnce(database.db)
  await database.db.execute(sql`delete from wallet_addresses`)
  await addWalletAddresses(database.db, testAddresses(40, `${engine}-${Math.random()}`))
  const t = await createTestApp(
    engine,
    {
      TRON_API_URL: chain.url,
      EXPLORER_MAX_RPS: '50',
      PAYMENT_WINDOW_MINUTES: '30',
      LATE_PAYMENT_GRACE_MINUTES: '60',
      // One test client places every order.
      CHECKOUT_PENDING_PER_CLIENT: '100000',
      CHECKOUT_PENDING_PER_EMAIL: '100000',
      CHECKOUT_CREATIONS_PER_MINUTE: '100000',
      ...env,
    },
    { database },
  )
  const client = createTronClient({
    baseUrl: chain.url,
    usdtContract: t.env.USDT_CONTRACT,
    maxRps: 50,
    timeoutMs: 1500,
    backoffBaseMs: 20,
    maxBackoffMs: 100,
  })
  const watcher = createPaymentWatcher({
    db: database.db,
    client,
    toleranceMicros: t.app.services.toleranceMicros,
    fulfil: t.app.services.fulfil,
    activeIntervalMs: 0,
    graceIntervalMs: 0,
    backoffBaseMs: 20,
    maxBackoffMs: 100,
    idleMs: 20,
  })
  const listed = (await rpc(t.app, 'fetch_products')).body.products as {
    id: number
    price: number
    is_free: boolean
  }[]
  const products = listed.filter((p) => !p.is_free && p.price > 0).sort((a, b) => a.price - b.price)

  const rows = async (query: ReturnType<typeof sql>) =>
    ((await database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows

  const secrets = new Map<string, string>()
  return {
    t,
    chain,
    watcher,
    products,
    secretOf: (id) => secrets.get(id),
    async placeOrder(quantity = 1, productIndex = 0) {
      const product = products[productIndex] as { id: number; price: number }
      const total = Math.round(product.price * quantity * 100) / 100
      const { body } = await rpc(t.app, 'secure_create_order', {
        p_email: 'buyer@example.com',
        p_items: [{ product: { id: product.id }, quantity }],
        p_total: total,
      })
      if (body.success !== true) throw new Error(`order refused: ${JSON.stringify(body)}`)
      secrets.set(body.order_id as string, body.order_secret as string)
      return {
        id: body.order_id as string,
        address: body.wallet_address as string,
        total,
        trxAmount: (body.trx_amount as string | undefined) ?? null,
      }
    },
    async order(id) {
      const [row] = await rows(sql`select * from orders where id = ${id}`)
      if (!row) throw new Error(`no order ${id}`)
      return row
    },
    async payments(where = 'all') {
      return rows(
        where === 'all'
          ? sql`select * from payments order by id`
          : sql`select * from payments where order_id is null order by id`,
      )
    },
    async age(id, minutes) {
      await database.db.execute(sql`
        update orders set created_at = created_at - ${minutes} * interval '1 minute',
          expires_at = expires_at - ${minutes} * interval '1 minute',
          grace_until = grace_until - ${minutes} * interval '1 minute'
        where id = ${id}`)
      await database.db.execute(sql`
        update wallet_addresses set lease_until = lease_until - ${minutes} * interval '1 minute'
        where leased_order_id = ${id}`)
    },
    async close() {
      await watcher.stop()
      await t.close()
      await chain.close()
    },
  }
}
