import { generateKeyPairSigner, type KeyPairSigner } from '@solana/kit'
import { sql } from 'drizzle-orm'
import {
  type ChainFollower,
  createChainFollower,
  type FollowResult,
} from '../../../src/server/chains/chain-follower'
import { seedOnce } from '../../../src/server/db/seed'
import { addWalletAddresses } from '../../../src/server/wallets/wallets.repo'
import { type RpcFront, serveRpc } from '../../../tools/solana-standin/rpc'
import { createStandin, type Standin } from '../../../tools/solana-standin/standin'
import { transferInstructions } from '../../../tools/solana-standin/transfers'
import { testAddresses } from '../test-addresses'
import { createTestApp, rpc, type TestApp } from '../test-app'
import { createTestDatabase, type Engine } from '../test-db'

// The shop on a real database with Solana enabled on the stand-in cluster (LiteSVM running the real
// SPL Token program) behind two JSON-RPC fronts, the shop's two providers. The pool's Solana
// addresses are wallet keys the test holds (a refund is sent from one). Tests drive the slots
// (advance) and run the follower with runOnce.

export const FINALIZE_DEPTH = 4

export interface SolanaFixture {
  t: TestApp
  standin: Standin
  fronts: [RpcFront, RpcFront]
  follower: ChainFollower
  buyer: KeyPairSigner
  /** A wallet with SOL and no tokens (its transfers fail). */
  broke: KeyPairSigner
  /** The pool's Solana keys by address. */
  keys: Map<string, KeyPairSigner>
  placeOrder(
    token: 'USDT' | 'USDC',
  ): Promise<{ id: string; address: string; total: number; body: Record<string, unknown> }>
  status(id: string): Promise<Record<string, unknown>>
  confirm(id: string, signature: string): Promise<{ status: number; body: Record<string, unknown> }>
  /** The buyer sends `units` of a mint to `to` (transferChecked unless told). */
  pay(
    to: string,
    mint: string,
    units: bigint,
    o?: { kind?: 'transfer' | 'transferChecked'; from?: KeyPairSigner },
  ): Promise<{ signature: string; err: unknown }>
  /** Makes the newest slot final and runs the follower until its checkpoint reaches it. */
  finalise(): Promise<FollowResult[]>
  rows(query: ReturnType<typeof sql>): Promise<Record<string, unknown>[]>
  close(): Promise<void>
}

export const units = (dollars: number) => BigInt(Math.round(dollars * 1_000_000))

export async function createSolanaFixture(engine: Engine): Promise<SolanaFixture> {
  const standin = await createStandin({ finalizeDepth: FINALIZE_DEPTH })
  const fronts: [RpcFront, RpcFront] = [await serveRpc(standin), await serveRpc(standin)]
  const buyer = await generateKeyPairSigner()
  const broke = await generateKeyPairSigner()
  standin.airdrop(buyer.address)
  standin.airdrop(broke.address)
  await standin.mintTo(standin.mints.usdt, buyer.address, 1_000_000_000_000n)
  await standin.mintTo(standin.mints.usdc, buyer.address, 1_000_000_000_000n)
  await standin.mintTo(standin.mints.counterfeitUsdt, buyer.address, 1_000_000_000_000n)
  const keys = new Map<string, KeyPairSigner>()
  for (let i = 0; i < 13; i++) {
    const k = await generateKeyPairSigner()
    keys.set(k.address, k)
  }
  const database = await createTestDatabase(engine, { poolSize: 10 })
  await seedOnce(database.db)
  await database.db.execute(sql`delete from wallet_addresses`)
  await addWalletAddresses(database.db, testAddresses(3, `${engine}-${Math.random()}`))
  await addWalletAddresses(
    database.db,
    [...keys.keys()].map((address) => ({ address, family: 'solana' as const })),
  )
  const t = await createTestApp(
    engine,
    {
      TRON_API_URL: 'http://127.0.0.1:9',
      SOLANA_ENABLED: 'true',
      SOLANA_PROVIDER_1_URL: fronts[0].url,
      SOLANA_PROVIDER_1_NAME: 'first',
      SOLANA_PROVIDER_2_URL: fronts[1].url,
      SOLANA_PROVIDER_2_NAME: 'second',
      SOLANA_POLL_MS: '100',
      SOLANA_FINAL_EVERY_MS: '100',
      SOLANA_PAY_LABEL: 'Test Shop',
    },
    { database },
  )
  const follower = createChainFollower({
    db: database.db,
    chain: t.app.services.chains.require('solana'),
    rules: t.app.services.rules,
    intervalMs: 20,
    backoffBaseMs: 20,
    maxBackoffMs: 100,
    leaseMs: 5000,
  })
  const first = await follower.runOnce()
  if (first.error) throw new Error(`follower could not start: ${first.error.message}`)
  const products = (
    (await rpc(t.app, 'fetch_products')).body.products as { id: number; price: number; is_free: boolean }[]
  )
    .filter((p) => !p.is_free && p.price > 0)
    .sort((a, b) => a.price - b.price)
  const secrets = new Map<string, string>()
  const rows = async (query: ReturnType<typeof sql>) =>
    ((await database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows
  const finalSlot = async () =>
    Number(
      (await rows(sql`select checkpoint_block from follower_state where chain = 'solana'`))[0]
        ?.checkpoint_block,
    )

  const fx: SolanaFixture = {
    t,
    standin,
    fronts,
    follower,
    buyer,
    broke,
    keys,
    async placeOrder(token) {
      const product = products[0] as { id: number; price: number }
      const { body } = await rpc(t.app, 'secure_create_order', {
        p_email: 'buyer@example.com',
        p_items: [{ product: { id: product.id }, quantity: 1 }],
        p_total: product.price,
        p_chain: 'solana',
        p_token: token,
      })
      if (body.success !== true) throw new Error(`order refused: ${JSON.stringify(body)}`)
      secrets.set(body.order_id as string, body.order_secret as string)
      return {
        id: body.order_id as string,
        address: body.wallet_address as string,
        total: product.price,
        body,
      }
    },
    async status(id) {
      return (
        await rpc(t.app, 'secure_get_order_status', { p_order_id: id, p_order_secret: secrets.get(id) })
      ).body
    },
    confirm: (id, signature) =>
      rpc(
        t.app,
        'secure_confirm_transaction',
        { p_order_id: id, p_transaction_hash: signature, p_order_secret: secrets.get(id) },
        { 'x-forwarded-for': `${id}-${signature.slice(0, 8)}` },
      ),
    async pay(to, mint, amount, o = {}) {
      const from = o.from ?? buyer
      return standin.run(from, await transferInstructions({ payer: from, to, mint, amount, kind: o.kind }))
    },
    async finalise() {
      standin.advance(FINALIZE_DEPTH + 1)
      const target = standin.slot('finalized')
      const results: FollowResult[] = []
      for (let i = 0; i < 200; i++) {
        const r = await fx.follower.runOnce()
        results.push(r)
        if (r.error) return results
        if ((await finalSlot()) >= target) return results
        // The listings are fresh for SOLANA_POLL_MS: the next pass lists again once it has passed.
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
      throw new Error(`the Solana follower did not reach slot ${target}`)
    },
    rows,
    async close() {
      await fx.follower.stop()
      await t.close()
      standin.stop()
      await Promise.all(fronts.map((f) => f.close()))
    },
  }
  return fx
}
