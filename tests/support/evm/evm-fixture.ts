import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { type Address, getAddress, type Hash } from 'viem'
import {
  type ChainFollower,
  createChainFollower,
  type FollowResult,
} from '../../../src/server/chains/chain-follower'
import { seedOnce } from '../../../src/server/db/seed'
import { addWalletAddresses } from '../../../src/server/wallets/wallets.repo'
import type { ChainId } from '../../../src/shared/chains'
import { testAddresses } from '../test-addresses'
import { createTestApp, rpc, type TestApp } from '../test-app'
import { createTestDatabase, type Engine } from '../test-db'
import { waitFor } from '../wait'
import { type Anvil, spawnAnvil } from './anvil'
import { accounts, deployRouter, deployStablecoin, mint, USDC_6, USDC_18, USDT_6, USDT_18 } from './tokens'

// The shop on a real database with EVM chains on real Anvil nodes: BNB Smart Chain (chain id 56,
// 18-decimal USDT and USDC) and Base (8453, 6-decimal USDC), each with a counterfeit USDT and a
// router contract. Each Anvil mines a block per transaction; tests mine more to pass the depth and
// drive each chain's follower with runOnce.

export const DEPTH = 3

export interface EvmNode {
  chain: ChainId
  anvil: Anvil
  tokens: { USDT?: Address; USDC: Address }
  fake: Address
  router: Address
  follower: ChainFollower
}

export interface EvmFixture {
  t: TestApp
  nodes: Record<'bsc' | 'base', EvmNode>
  buyer: Address
  other: Address
  /** EVM addresses of the pool. */
  pool: Address[]
  placeOrder(o: {
    chain: ChainId
    token: 'USDT' | 'USDC'
  }): Promise<{ id: string; address: Address; total: number; body: Record<string, unknown> }>
  status(id: string): Promise<Record<string, unknown>>
  confirm(
    id: string,
    hash: string,
    chain?: ChainId,
  ): Promise<{ status: number; body: Record<string, unknown> }>
  /** Mines `depth` blocks on the chain and runs its follower until it has read up to the final head. */
  finalise(chain: 'bsc' | 'base'): Promise<FollowResult[]>
  rows(query: ReturnType<typeof sql>): Promise<Record<string, unknown>[]>
  close(): Promise<void>
}

function randomEvmAddress(): Address {
  return getAddress(`0x${randomBytes(20).toString('hex')}`)
}

async function node(
  chain: 'bsc' | 'base',
  chainId: number,
): Promise<Omit<EvmNode, 'follower'> & { buyer: Address; other: Address }> {
  const anvil = await spawnAnvil({ chainId })
  const [deployer, buyer, other] = await accounts(anvil)
  const tokens =
    chain === 'bsc'
      ? { USDT: await deployStablecoin(anvil, USDT_18), USDC: await deployStablecoin(anvil, USDC_18) }
      : { USDC: await deployStablecoin(anvil, USDC_6) }
  const fake = await deployStablecoin(anvil, chain === 'bsc' ? USDT_18 : USDT_6)
  const router = await deployRouter(anvil)
  for (const token of [...Object.values(tokens), fake]) await mint(anvil, token, deployer, buyer, 10n ** 30n)
  return { chain, anvil, tokens, fake, router, buyer, other }
}

function tokenEnv(chain: 'bsc' | 'base', n: Awaited<ReturnType<typeof node>>): Record<string, string> {
  const p = `EVM_${chain.toUpperCase()}_`
  const decimals = chain === 'bsc' ? 18 : 6
  return {
    [`${p}ENABLED`]: 'true',
    [`${p}PROVIDER_1_URL`]: n.anvil.url,
    [`${p}CONFIRMATIONS`]: String(DEPTH),
    [`${p}TOKENS`]: JSON.stringify(
      Object.entries(n.tokens).map(([symbol, contract]) => ({ symbol, contract, decimals })),
    ),
  }
}

export async function createEvmFixture(
  engine: Engine,
  opts: { env?: Record<string, string> } = {},
): Promise<EvmFixture> {
  const [bsc, base] = await Promise.all([node('bsc', 56), node('base', 8453)])
  const database = await createTestDatabase(engine, { poolSize: 10 })
  await seedOnce(database.db)
  await database.db.execute(sql`delete from wallet_addresses`)
  const pool = Array.from({ length: 20 }, randomEvmAddress)
  await addWalletAddresses(database.db, testAddresses(5, `${engine}-${Math.random()}`))
  await addWalletAddresses(
    database.db,
    pool.map((address) => ({ address, family: 'evm' as const })),
  )
  const t = await createTestApp(
    engine,
    { TRON_API_URL: 'http://127.0.0.1:9', ...tokenEnv('bsc', bsc), ...tokenEnv('base', base), ...opts.env },
    { database },
  )
  const followerOf = (chain: 'bsc' | 'base') =>
    createChainFollower({
      db: database.db,
      chain: t.app.services.chains.require(chain),
      rules: t.app.services.rules,
      batchBlocks: 50,
      intervalMs: 20,
      backoffBaseMs: 20,
      maxBackoffMs: 100,
      leaseMs: 5000,
    })
  const nodes = {
    bsc: { ...bsc, follower: followerOf('bsc') },
    base: { ...base, follower: followerOf('base') },
  }
  // Each follower starts at its chain's final head, before any order exists.
  for (const n of Object.values(nodes)) {
    const first = await n.follower.runOnce()
    if (first.error) throw new Error(`follower could not start: ${first.error.message}`)
  }
  const products = (
    (await rpc(t.app, 'fetch_products')).body.products as { id: number; price: number; is_free: boolean }[]
  )
    .filter((p) => !p.is_free && p.price > 0)
    .sort((a, b) => a.price - b.price)
  const secrets = new Map<string, string>()
  const rows = async (query: ReturnType<typeof sql>) =>
    ((await database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows

  return {
    t,
    nodes,
    buyer: bsc.buyer,
    other: bsc.other,
    pool,
    async placeOrder(o) {
      const product = products[0] as { id: number; price: number }
      const { body } = await rpc(t.app, 'secure_create_order', {
        p_email: 'buyer@example.com',
        p_items: [{ product: { id: product.id }, quantity: 1 }],
        p_total: product.price,
        p_chain: o.chain,
        p_token: o.token,
      })
      if (body.success !== true) throw new Error(`order refused: ${JSON.stringify(body)}`)
      secrets.set(body.order_id as string, body.order_secret as string)
      // Anvil stamps blocks in whole seconds of its own clock, which can run up to a second behind
      // the server's: a transfer sent the moment the order exists could carry a block time before the
      // address's lease began, and block time decides (no_order). A buyer takes longer than that; the
      // tests wait until the node's next block would be stamped at or after the lease's start.
      const [lease] = await rows(
        sql`select started_at from address_leases where order_id = ${body.order_id as string}`,
      )
      const leasedAt = new Date(String(lease?.started_at)).getTime()
      const node = nodes[o.chain as keyof typeof nodes]
      if (node && Number.isFinite(leasedAt)) {
        await waitFor('the node clock to pass the start of the lease', async () => {
          const next = await node.anvil.client.getBlock({ blockTag: 'pending' })
          return Number(next.timestamp) * 1000 + 999 >= leasedAt
        })
      }
      return {
        id: body.order_id as string,
        address: body.wallet_address as Address,
        total: product.price,
        body,
      }
    },
    async status(id) {
      return (
        await rpc(t.app, 'secure_get_order_status', { p_order_id: id, p_order_secret: secrets.get(id) })
      ).body
    },
    confirm: (id, hash, chain) =>
      rpc(
        t.app,
        'secure_confirm_transaction',
        {
          p_order_id: id,
          p_transaction_hash: hash,
          p_order_secret: secrets.get(id),
          ...(chain ? { p_chain: chain } : {}),
        },
        { 'x-forwarded-for': `${id}-${hash.slice(2, 10)}` },
      ),
    async finalise(chain) {
      const n = nodes[chain]
      await n.anvil.client.mine({ blocks: DEPTH })
      const head = Number(await n.anvil.client.getBlockNumber())
      const results: FollowResult[] = []
      for (let i = 0; i < 100; i++) {
        const r = await n.follower.runOnce()
        results.push(r)
        if (r.error || (r.checkpoint !== null && r.checkpoint >= head - DEPTH + 1)) return results
      }
      throw new Error(`the ${chain} follower did not reach ${head - DEPTH + 1}`)
    },
    rows,
    async close() {
      for (const n of Object.values(nodes)) await n.follower.stop()
      await t.close()
      await Promise.all(Object.values(nodes).map((n) => n.anvil.stop()))
    },
  }
}

export type { Hash }
