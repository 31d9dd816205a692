import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FinalReads } from '../../src/server/chains/chain'
import { type ChainFollower, createChainFollower } from '../../src/server/chains/chain-follower'
import { seedOnce } from '../../src/server/db/seed'
import { addWalletAddresses } from '../../src/server/wallets/wallets.repo'
import { createTestApp, rpc, type TestApp } from '../support/test-app'
import { createTestDatabase, type Engine } from '../support/test-db'
import { waitFor } from '../support/wait'
import type { ConformanceHarness } from './chain-conformance'
import { startProviderProxy } from './provider-proxy'

// The conformance suite's cases through the shop itself (decision 064): the app built from the
// family's settings, an order placed over HTTP, the chain's follower writing the ledger on a real
// database. What the adapter cases cannot show: the transfer is recorded once, also when the
// follower that was reading stops dead mid-read (another takes over once its lease runs out, and if
// it wakes it records nothing), and when a follower starts again from an older checkpoint.

const LEASE_MS = 500

export function shopCases(harness: () => ConformanceHarness, engines: readonly Engine[]): void {
  describe.each(engines)('through the shop (%s)', (engine) => {
    let h: ConformanceHarness
    let t: TestApp
    let follower: ChainFollower
    /** A follower of the chain, through the shop's adapter unless given another. */
    const newFollower = (chain: FinalReads = t.app.services.chains.require(h.chain)) =>
      createChainFollower({
        db: t.database.db,
        chain,
        rules: t.app.services.rules,
        batchBlocks: 50,
        intervalMs: 20,
        backoffBaseMs: 20,
        maxBackoffMs: 100,
        leaseMs: LEASE_MS,
      })
    const rows = async (query: ReturnType<typeof sql>) =>
      ((await t.database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows
    const checkpoint = async () =>
      Number(
        (await rows(sql`select checkpoint_block from follower_state where chain = ${h.chain}`))[0]
          ?.checkpoint_block,
      )
    /** Runs the follower until its checkpoint reaches the node's final height. */
    const followToFinal = async (f: ChainFollower) => {
      const target = await h.finalHeight()
      await waitFor(
        `the follower at block ${target}`,
        async () => {
          const r = await f.runOnce()
          return r.leader && !r.error && (await checkpoint()) >= target
        },
        20_000,
      )
    }

    beforeAll(async () => {
      h = harness()
      const pool = [await h.newAddress(), await h.newAddress(), await h.newAddress()]
      const database = await createTestDatabase(engine, { poolSize: 10 })
      await seedOnce(database.db)
      await addWalletAddresses(
        database.db,
        pool.map((address) => ({ address, family: h.family })),
      )
      t = await createTestApp(
        engine,
        { TRON_API_URL: 'http://127.0.0.1:9', ...h.env([h.nodeUrl]) },
        { database },
      )
      follower = newFollower()
      // The follower starts at the chain's final head, before any order exists.
      await waitFor('the follower’s first pass', async () => !(await follower.runOnce()).error)
    }, 60_000)
    afterAll(async () => {
      await follower?.stop()
      await t?.close()
    })

    it('an order paid exactly is paid, its transfer in the ledger once: a follower stuck mid-read is taken over, and one started again from an older checkpoint records nothing twice', async () => {
      const product = (
        (await rpc(t.app, 'fetch_products')).body.products as {
          id: number
          price: number
          is_free: boolean
        }[]
      )
        .filter((p) => !p.is_free && p.price > 0)
        .sort((a, b) => a.price - b.price)[0] as { id: number; price: number }
      const { body } = await rpc(t.app, 'secure_create_order', {
        p_email: 'buyer@example.com',
        p_items: [{ product: { id: product.id }, quantity: 1 }],
        p_total: product.price,
        p_chain: h.chain,
        p_token: h.token.symbol,
      })
      expect(body).toMatchObject({ success: true, chain: h.chain, token: h.token.symbol })
      const [id, secret, address] = [body.order_id, body.order_secret, body.wallet_address] as string[]
      const due = BigInt(body.amount_units as string)
      const before = await checkpoint()
      const sent = await h.pay(address as string, due)
      await h.finalize()
      const ledger = () =>
        rows(sql`select tx_id, amount_units::text as units, status from payments where order_id = ${id}`)
      // A follower stops mid-read, its provider's answer never coming: to the others it is dead
      // (SIGKILL, a frozen machine). Its lease runs out and another process records the payment.
      // The first pass's follower lets go of the chain, so the one that gets stuck is the leader.
      await follower.stop()
      const stuck = await startProviderProxy(h.nodeUrl)
      stuck.set({ kind: 'hold' })
      const frozen = newFollower(h.adapter([stuck.url]))
      const frozenPass = frozen.runOnce().catch((err: Error) => ({ error: err, leader: false }))
      try {
        await waitFor('the first follower stuck in its read', () => stuck.asked.held > 0)
        const next = newFollower()
        await followToFinal(next)
        await next.stop()
        expect(await ledger()).toEqual([{ tx_id: sent, units: due.toString(), status: 'credited' }])
        const status = await rpc(t.app, 'secure_get_order_status', { p_order_id: id, p_order_secret: secret })
        expect(status.body).toMatchObject({ status: 'paid', tx_hash: sent })
        // It wakes after all: what it read is not recorded again.
        stuck.set({ kind: 'pass' })
        await frozenPass
        expect(await ledger()).toEqual([{ tx_id: sent, units: due.toString(), status: 'credited' }])
      } finally {
        await frozen.stop()
        await stuck.close()
      }
      // As if a process was killed after reading the payment, before its checkpoint moved past it:
      // a new process reads the same blocks again.
      await rows(
        sql`update follower_state set checkpoint_block = ${before}, checkpoint_block_id = null where chain = ${h.chain}`,
      )
      const restarted = newFollower()
      try {
        await followToFinal(restarted)
      } finally {
        await restarted.stop()
      }
      expect(await ledger()).toEqual([{ tx_id: sent, units: due.toString(), status: 'credited' }])
    })
  })
}
