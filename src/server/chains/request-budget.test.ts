import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPaymentFixture, type PaymentFixture } from '../../../tests/support/payment-fixture'
import { rpc } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { waitFor } from '../../../tests/support/wait'
import { createAccountReads } from './account-reads'
import { COOLDOWN_SWEEP_LEAD_MS, createAddressSweep } from './address-sweep'
import { createChainFollower } from './chain-follower'
import { FOLLOWER_PER_BLOCK, LOOK_COST, sightingPace } from './sighting-pace'

// One free provider key is enough (decision 045): the devchain counts every request by route, with
// unrelated contract calls in every block as on mainnet, so a receipt read per block would show.

/** The day's budget on one free key (70 % of 100,000) over mainnet's 28,800 blocks a day. */
const BUDGET_PER_BLOCK = 70_000 / 28_800
const IDLE_PER_BLOCK = 15_000 / 28_800
const SOME_CONTRACT = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL'

const total = (byPath: Record<string, number>) => Object.values(byPath).reduce((a, b) => a + b, 0)

describe.each(engines)('the request budget with an order open on %s', (engine) => {
  let f: PaymentFixture
  beforeAll(async () => {
    f = await createPaymentFixture(engine, { noisePerBlock: 4 })
  })
  afterAll(() => f.close())

  it('following, a sighting look at every block and the open orders’ account reads stay within one key; receipts only where they pay us', async () => {
    const o = await f.placeOrder()
    // A second order stays open throughout: its address is read on the pace all along.
    const other = await f.placeOrder()
    const tron = f.t.app.services.chains.require('tron')
    const head = tron.createHeadReader()
    const watch = new Set([o.address, other.address])
    // The account reads at their default pace, on a clock of mainnet's 3 s a block (decision 054).
    let clock = Date.now()
    const reads = createAccountReads({
      db: f.t.database.db,
      chain: tron,
      rules: f.t.app.services.rules,
      now: () => clock,
    })
    // The follower reads what was solidified before the count starts; the start-up reads are done.
    await f.followUntil(f.chain.heights().solid)
    await head.look(watch)
    for (let pass = 0; pass < 5; pass++) await reads.run()
    f.chain.resetStats()
    const BLOCKS = 40
    let sent: { txId: string; block: number } | null = null
    for (let i = 0; i < BLOCKS; i++) {
      if (i === 10) sent = await f.send({ to: o.address, amount: o.total.toFixed(2) })
      f.chain.mine(1)
      clock += 3000
      await f.followUntil(f.chain.heights().solid)
      const look = await head.look(watch)
      expect(look.error).toBeUndefined()
      await reads.run()
    }
    const { byPath } = f.chain.stats()
    // One read of the new final block and one of the head a block, plus the two receipt calls of
    // the one block that paid us (head and final): the pacing's early looks (~17 % for the
    // follower, 5 % for the looks, decision 045) fit the rest.
    expect(byPath['/walletsolidity/gettransactioninfobyblocknum']).toBe(1)
    expect(byPath['/wallet/gettransactioninfobyblocknum']).toBe(1)
    expect(byPath['/walletsolidity/getblockbylimitnext']).toBe(BLOCKS)
    expect(byPath['/wallet/getblockbylimitnext']).toBe(BLOCKS)
    // The open order's address read once a minute (20 blocks), two lists a read (the paid one's
    // lease ended before its first minute).
    expect(byPath['/v1/accounts/:address/transactions/trc20']).toBe(2)
    expect(byPath['/v1/accounts/:address/transactions']).toBe(2)
    const lists = 4
    const following =
      (byPath['/walletsolidity/getblockbylimitnext'] ?? 0) +
      (byPath['/walletsolidity/gettransactioninfobyblocknum'] ?? 0)
    const looking = total(byPath) - following - lists
    // The day's hash checks (400) and the daily reads of 200 pool addresses (400) on top.
    const perDay = 800 / 28_800
    const perBlock = (following * 1.17 + looking * LOOK_COST + lists) / BLOCKS + perDay
    expect(perBlock).toBeLessThan(BUDGET_PER_BLOCK)
    expect(await f.status(o.id)).toMatchObject({ status: 'paid', tx_hash: sent?.txId })
  }, 120_000)

  it('with the follower at its new rate, one key of 70,000 a day gives sightings a look every block', () => {
    const day = Date.UTC(2026, 10, 27)
    const pace = sightingPace(
      { perDay: 70_000, usedToday: 1_440, sightingsToday: 1_250, countingSince: day },
      {
        now: day + 3600_000,
        blockIntervalMs: 3000,
        followerPerSecond: FOLLOWER_PER_BLOCK / 3,
        reserveShare: 0.05,
      },
    )
    expect(pace).toEqual({ mode: 'full', lookEveryMs: 3000 })
  })
})

describe.each(engines)('the safety net: shapes the cheaper read skips on %s', (engine) => {
  let f: PaymentFixture
  beforeAll(async () => {
    f = await createPaymentFixture(engine, { noisePerBlock: 2 })
  })
  afterAll(() => f.close())

  const ledgerOf = (txId: string) => f.rows(sql`select * from payments where tx_id = ${txId}`)
  const cancel = async (id: string) =>
    expect(
      (await rpc(f.t.app, 'secure_cancel_order', { p_order_id: id, p_order_secret: f.secretOf(id) })).body
        .success,
    ).toBe(true)

  it('USDT and TRX a contract pays to an address its call does not name: recorded once, when the order ends', async () => {
    const tron = f.t.app.services.chains.require('tron')
    const sweep = createAddressSweep({ db: f.t.database.db, chain: tron, rules: f.t.app.services.rules })
    const a = await f.placeOrder()
    const b = await f.placeOrder()
    const usdt = await f.pay({
      to: a.address,
      amount: a.total.toFixed(2),
      via_contract: SOME_CONTRACT,
      unnamed: true,
    })
    const trx = await f.pay({
      to: b.address,
      amount: b.trxAmount as string,
      token: 'TRX',
      via_contract: SOME_CONTRACT,
      unnamed: true,
    })
    // The follower read no receipt for these blocks: nothing named our addresses.
    expect(await ledgerOf(usdt.txId)).toEqual([])
    expect(await ledgerOf(trx.txId)).toEqual([])
    // While the orders are open, the net does not look (no request).
    f.chain.resetStats()
    expect(await sweep.run()).toBe(0)
    expect(f.chain.stats().requests).toBe(0)

    await cancel(a.id)
    await cancel(b.id)
    // The chain's clock passes the end; then the net looks at both addresses.
    const after = await f.send({ to: 'TXLAQ63Xg1NAzckPwKHvzw7CSEmLMEqcdj', amount: '1' })
    await f.settle(after.block)
    f.chain.resetStats()
    expect(await sweep.run()).toBe(2)
    const { byPath } = f.chain.stats()
    // Three account lists an address, then the transaction and its block's receipts.
    expect(byPath['/v1/accounts/:address/transactions/trc20']).toBe(2)
    expect(byPath['/v1/accounts/:address/transactions']).toBe(4)
    expect(await ledgerOf(usdt.txId)).toMatchObject([
      { source: 'log', token: 'USDT', to_address: a.address, order_id: a.id },
    ])
    expect(await ledgerOf(trx.txId)).toMatchObject([
      { source: 'internal', token: 'TRX', to_address: b.address, order_id: b.id },
    ])
    // The block time decides, as for the follower: made while the order was open, it pays it (late);
    // after the cancel (the devchain's clock may run ahead of the server's), it is kept against it.
    for (const [order, sent] of [
      [a, usdt],
      [b, trx],
    ] as const) {
      const cancelledAt = new Date(String((await f.order(order.id)).cancelled_at)).getTime()
      const [row] = await ledgerOf(sent.txId)
      if (Number(row?.block_timestamp) <= cancelledAt) {
        expect(row).toMatchObject({ status: 'credited' })
        expect(await f.status(order.id)).toMatchObject({ status: 'paid' })
      } else {
        expect(row).toMatchObject({ status: 'unmatched', reason: 'after_cancelled' })
      }
    }
    // Once: another pass, and the follower reading the same blocks again, add nothing.
    expect(await sweep.run()).toBe(0)
    await f.rows(
      sql`update follower_state set checkpoint_block = ${usdt.block - 1}, checkpoint_block_id = null`,
    )
    await f.followUntil(after.block)
    expect(await ledgerOf(usdt.txId)).toHaveLength(1)
    expect(await ledgerOf(trx.txId)).toHaveLength(1)
  })

  it('a transfer the cheaper read skips during the cool-down is recorded before the cool-down ends', async () => {
    const tron = f.t.app.services.chains.require('tron')
    const sweep = createAddressSweep({ db: f.t.database.db, chain: tron, rules: f.t.app.services.rules })
    const o = await f.placeOrder()
    await cancel(o.id)
    const tick = await f.send({ to: 'TXLAQ63Xg1NAzckPwKHvzw7CSEmLMEqcdj', amount: '1' })
    await f.settle(tick.block)
    await sweep.run() // the look at the order's end: nothing to find
    const late = await f.pay({ to: o.address, amount: '3', via_contract: SOME_CONTRACT, unnamed: true })
    expect(await ledgerOf(late.txId)).toEqual([])
    expect(await sweep.run()).toBe(0) // the end was looked at already
    // The cool-down nears its end (chain time): the second look finds it.
    const [state] = await f.rows(sql`select checkpoint_time from follower_state where chain = 'tron'`)
    const soon = new Date(Number(state?.checkpoint_time) + COOLDOWN_SWEEP_LEAD_MS - 60_000)
    await f.rows(
      sql`update address_leases set cooldown_until = ${soon.toISOString()} where order_id = ${o.id}`,
    )
    expect(await sweep.run()).toBe(1)
    expect(await ledgerOf(late.txId)).toMatchObject([
      { source: 'log', status: 'unmatched', reason: 'after_cancelled', order_id: o.id },
    ])
  })
})

describe.each(engines)('an idle shop on %s', (engine) => {
  let f: PaymentFixture
  beforeAll(async () => {
    // Blocks every 100 ms by the devchain's clock: an hour of mainnet is 1,200 blocks, two minutes here.
    f = await createPaymentFixture(engine, { noisePerBlock: 2, autoMine: true, blockIntervalMs: 100 })
  })
  afterAll(() => f.close())

  it('reads in ranges while nothing is open or cooling down; the first order after is followed from the right block', async () => {
    const tron = f.t.app.services.chains.require('tron')
    const follower = createChainFollower({
      db: f.t.database.db,
      chain: tron,
      rules: f.t.app.services.rules,
      // The fixture's follower holds the lease: this one is the same process.
      instanceId: f.follower.instanceId,
      batchBlocks: 20,
      intervalMs: 50,
      blockIntervalMs: 100,
      // 15 blocks, as 45 s is on mainnet.
      idleEveryMs: 1500,
      leaseMs: 5000,
    })
    const checkpoint = async () =>
      Number(
        (await f.rows(sql`select checkpoint_block from follower_state where chain = 'tron'`))[0]
          ?.checkpoint_block,
      )
    await f.followUntil(f.chain.heights().solid)
    const from = await checkpoint()
    f.chain.resetStats()
    follower.start()
    try {
      const IDLE_BLOCKS = 150
      await waitFor(
        '150 idle blocks followed',
        async () => (await checkpoint()) >= from + IDLE_BLOCKS,
        60_000,
      )
      const solidRead = f.chain.heights().solid
      const { byPath } = f.chain.stats()
      const perBlock = total(byPath) / (solidRead - from)
      expect(perBlock).toBeLessThan(IDLE_PER_BLOCK)
      expect(byPath['/walletsolidity/gettransactioninfobyblocknum'] ?? 0).toBe(0)

      // An order placed now is followed from the checkpoint, block by block, and paid.
      const o = await f.placeOrder()
      const sent = await f.send({ to: o.address, amount: o.total.toFixed(2) })
      await waitFor('the order paid', async () => (await f.status(o.id)).status === 'paid', 60_000)
      // block_number is a bigint column: PostgreSQL's driver answers it as a string, PGlite as a number.
      const ledger = await f.rows(sql`select * from payments where tx_id = ${sent.txId}`)
      expect(ledger.map((row) => ({ ...row, block_number: Number(row.block_number) }))).toMatchObject([
        { status: 'credited', order_id: o.id, block_number: sent.block },
      ])
    } finally {
      await follower.stop()
    }
    // Its two waits may take a minute each on a busy machine.
  }, 150_000)
})
