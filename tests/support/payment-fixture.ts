import { sql } from 'drizzle-orm'
import {
  type ChainFollower,
  createChainFollower,
  type FollowResult,
} from '../../src/server/chains/chain-follower'
import { createTronClient, type TronClient } from '../../src/server/chains/tron/tron-client'
import { createTronFinalReads, type FollowerClient } from '../../src/server/chains/tron/tron-final'
import { seedOnce } from '../../src/server/db/seed'
import { addWalletAddresses } from '../../src/server/wallets/wallets.repo'
import { createDevchain, type Devchain, type TransferRequest } from '../../tools/devchain/devchain'
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

export interface SentTransfer {
  txId: string
  block: number
  timestamp: number
}

export interface PaymentFixture {
  t: TestApp
  chain: Devchain
  client: TronClient
  /** The chain follower; tests drive it with runOnce / followUntil instead of its timer. */
  follower: ChainFollower
  /** Blocks a transfer needs on top of it to be solidified. */
  lag: number
  /** Products that cost money, cheapest first. */
  products: { id: number; price: number }[]
  placeOrder(opts?: {
    quantity?: number
    productId?: number
    email?: string
    address?: string
    /** The buyer's language (p_locale). */
    locale?: string
    /** A discount code and the discounted total the buyer was shown (dollars). */
    discount?: { code: string; total: number }
  }): Promise<PlacedOrder>
  /** The secret secure_create_order answered for the order (what the buyer's browser keeps). */
  secretOf(id: string): string | undefined
  /** secure_get_order_status as the buyer's browser asks it (with the order's secret). */
  status(id: string): Promise<Record<string, unknown>>
  /** Puts a transfer into the next block (not solidified yet). */
  send(request: TransferRequest): Promise<SentTransfer>
  /** Makes `block` solidified and lets the follower read up to it. */
  settle(block: number): Promise<FollowResult[]>
  /** send + settle. */
  pay(request: TransferRequest): Promise<SentTransfer>
  /** Runs the follower until its checkpoint reaches `block`. */
  followUntil(block: number): Promise<FollowResult[]>
  order(id: string): Promise<Record<string, unknown>>
  payments(where?: 'all' | 'unmatched' | 'credited'): Promise<Record<string, unknown>[]>
  rows(query: ReturnType<typeof sql>): Promise<Record<string, unknown>[]>
  close(): Promise<void>
}

export interface FixtureOptions {
  env?: Record<string, string>
  /** Addresses in the pool. Default 40. */
  pool?: number
  blockIntervalMs?: number
  solidifyLag?: number
  /** The chain produces a block every blockIntervalMs on its own clock as well as by mine() (default: only mine()). */
  autoMine?: boolean
  /** The devchain's port (default: a free one). */
  chainPort?: number
  /** Unrelated USDT transfers in every block (mainnet has ~76). Default 0. */
  noisePerBlock?: number
  /** What the follower reads through (the provider pool in its tests); default `client`. */
  follower?: (chain: Devchain, usdtContract: string) => Promise<FollowerClient>
}

export async function createPaymentFixture(
  engine: Engine,
  opts: FixtureOptions = {},
): Promise<PaymentFixture> {
  const lag = opts.solidifyLag ?? 3
  const chain = await createDevchain({
    priceUsd: '0.25',
    autoMine: opts.autoMine ?? false,
    ...(opts.chainPort ? { port: opts.chainPort } : {}),
    noisePerBlock: opts.noisePerBlock ?? 0,
    blockIntervalMs: opts.blockIntervalMs ?? 100,
    solidifyLag: lag,
  })
  const database = await createTestDatabase(engine, { poolSize: 10 })
  await seedOnce(database.db)
  await database.db.execute(sql`delete from wallet_addresses`)
  await addWalletAddresses(database.db, testAddresses(opts.pool ?? 40, `${engine}-${Math.random()}`))
  const t = await createTestApp(
    engine,
    {
      TRON_API_URL: chain.url,
      EXPLORER_MAX_RPS: '100',
      PAYMENT_WINDOW_MINUTES: '30',
      LATE_PAYMENT_GRACE_MINUTES: '60',
      // One test client places every order.
      CHECKOUT_PENDING_PER_CLIENT: '100000',
      CHECKOUT_PENDING_PER_EMAIL: '100000',
      CHECKOUT_CREATIONS_PER_MINUTE: '100000',
      CHECKOUT_HELD_PER_NETWORK: '100000',
      CHECKOUT_RESERVE_PERCENT: '0',
      ...opts.env,
    },
    { database },
  )
  const client = createTronClient({
    baseUrl: chain.url,
    usdtContract: t.env.USDT_CONTRACT,
    maxRps: 100,
    timeoutMs: 1500,
    backoffBaseMs: 20,
    maxBackoffMs: 100,
  })
  const follower = createChainFollower({
    db: database.db,
    chain: createTronFinalReads(opts.follower ? await opts.follower(chain, t.env.USDT_CONTRACT) : client),
    rules: t.app.services.rules,
    batchBlocks: 20,
    intervalMs: 20,
    backoffBaseMs: 20,
    maxBackoffMs: 100,
    leaseMs: 5000,
    // As server.ts wires it: a payment and a commit are news for the payment page.
    onPaid: (id) => t.app.services.orderPaid.emit(id),
    onCommitted: () => t.app.services.orderWatch.notify('*'),
  })
  // The follower starts at the solidified head, before any order exists.
  chain.mine(lag + 1)
  const first = await follower.runOnce()
  if (first.error) throw new Error(`follower could not start: ${first.error.message}`)

  const listed = (await rpc(t.app, 'fetch_products')).body.products as {
    id: number
    price: number
    is_free: boolean
  }[]
  const products = listed.filter((p) => !p.is_free && p.price > 0).sort((a, b) => a.price - b.price)

  const secrets = new Map<string, string>()
  const rows = async (query: ReturnType<typeof sql>) =>
    ((await database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows

  async function followUntil(block: number): Promise<FollowResult[]> {
    const results: FollowResult[] = []
    for (let i = 0; i < 500; i++) {
      const result = await follower.runOnce()
      results.push(result)
      const [state] = await rows(sql`select checkpoint_block from follower_state where id = 1`)
      if (Number(state?.checkpoint_block ?? -1) >= block) return results
    }
    throw new Error(`the follower did not reach block ${block}: ${JSON.stringify(results.slice(-3))}`)
  }

  async function settle(block: number): Promise<FollowResult[]> {
    const { solid } = chain.heights()
    if (solid < block) chain.mine(block - solid)
    return followUntil(block)
  }

  async function send(request: TransferRequest): Promise<SentTransfer> {
    const sent = chain.transfer(request)
    return { txId: sent.transaction_id, block: sent.block_number, timestamp: sent.block_timestamp }
  }

  return {
    t,
    chain,
    client,
    follower,
    lag,
    products,
    async placeOrder(o = {}) {
      if (o.productId && !listed.some((p) => p.id === o.productId)) {
        // A product the test added after the fixture was made.
        listed.splice(
          0,
          listed.length,
          ...((await rpc(t.app, 'fetch_products')).body.products as typeof listed),
        )
      }
      const product = o.productId
        ? (listed.find((p) => p.id === o.productId) as { id: number; price: number })
        : (products[0] as { id: number; price: number })
      const quantity = o.quantity ?? 1
      const total = o.discount?.total ?? Math.round(product.price * quantity * 100) / 100
      const { body } = await rpc(t.app, 'secure_create_order', {
        p_email: o.email ?? 'buyer@example.com',
        p_items: [{ product: { id: product.id }, quantity }],
        p_total: total,
        ...(o.address ? { p_wallet_address: o.address } : {}),
        ...(o.locale ? { p_locale: o.locale } : {}),
        ...(o.discount ? { p_discount_code: o.discount.code } : {}),
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
    secretOf: (id) => secrets.get(id),
    async status(id) {
      return (
        await rpc(t.app, 'secure_get_order_status', { p_order_id: id, p_order_secret: secrets.get(id) })
      ).body
    },
    send,
    settle,
    async pay(request) {
      const sent = await send(request)
      await settle(sent.block)
      return sent
    },
    followUntil,
    async order(id) {
      const [row] = await rows(sql`select * from orders where id = ${id}`)
      if (!row) throw new Error(`no order ${id}`)
      return row
    },
    async payments(where = 'all') {
      return rows(
        where === 'all'
          ? sql`select * from payments order by id`
          : sql`select * from payments where status = ${where} order by id`,
      )
    },
    rows,
    async close() {
      await follower.stop()
      await t.close()
      await chain.close()
    },
  }
}
