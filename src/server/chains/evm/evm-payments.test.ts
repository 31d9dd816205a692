import { sql } from 'drizzle-orm'
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEvmFixture, DEPTH, type EvmFixture } from '../../../../tests/support/evm/evm-fixture'
import { approve, revertedTransfer, routerPay, transfer } from '../../../../tests/support/evm/tokens'
import { engines } from '../../../../tests/support/test-db'
import { createSightingWatcher } from '../sighting-watcher'

// Paying orders on EVM chains end to end: the real app (secure_create_order, the buyer's status and
// hash), each chain's follower and sighting watcher, on real Anvil nodes (BNB Smart Chain with
// 18-decimal tokens, Base with 6) and a real database.

describe.each(engines)('EVM payments (%s)', (engine) => {
  let f: EvmFixture
  beforeAll(async () => {
    f = await createEvmFixture(engine)
  }, 180_000)
  afterAll(async () => {
    await f?.close()
  })

  const ledgerOf = (orderId: string) =>
    f.rows(
      sql`select chain, token, amount_units, status, tx_id from payments where order_id = ${orderId} order by id`,
    )
  const units = (dollars: number, decimals: number) =>
    (BigInt(Math.round(dollars * 100)) * 10n ** BigInt(decimals)) / 100n

  it('an order on BNB Smart Chain asks for 18-decimal USDT by EIP-681, and exact payment pays it', async () => {
    const o = await f.placeOrder({ chain: 'bsc', token: 'USDT' })
    const usdt = f.nodes.bsc.tokens.USDT as Address
    const due = units(o.total, 18)
    expect(o.body).toMatchObject({
      chain: 'bsc',
      token: 'USDT',
      token_decimals: 18,
      amount_units: due.toString(),
      payment_uri: `ethereum:${usdt}@56/transfer?address=${o.address}&uint256=${due}`,
      watched: [
        { chain: 'bsc', tokens: ['USDT', 'USDC'] },
        { chain: 'base', tokens: ['USDC'] },
      ],
      // The payment page's expected wait: the depth at BNB Smart Chain's 0.75 s blocks.
      confirm_blocks: DEPTH,
      confirm_seconds: Math.ceil(DEPTH * 0.75),
    })
    expect(f.pool).toContain(o.address)
    const sent = await transfer(f.nodes.bsc.anvil, usdt, f.buyer, o.address, due)
    // In a block, not final: nothing pays yet.
    await f.nodes.bsc.follower.runOnce()
    expect(await f.status(o.id)).toMatchObject({ status: 'pending' })
    await f.finalise('bsc')
    expect(await f.status(o.id)).toMatchObject({ status: 'paid', amount_received: o.total, tx_hash: sent })
    expect(await ledgerOf(o.id)).toEqual([
      { chain: 'bsc', token: 'USDT', amount_units: due.toString(), status: 'credited', tx_id: sent },
    ])
  })

  it('pays a 6-decimal USDC order on Base exactly', async () => {
    const o = await f.placeOrder({ chain: 'base', token: 'USDC' })
    expect(o.body).toMatchObject({ token_decimals: 6, amount_units: units(o.total, 6).toString() })
    await transfer(f.nodes.base.anvil, f.nodes.base.tokens.USDC, f.buyer, o.address, units(o.total, 6))
    await f.finalise('base')
    expect(await f.status(o.id)).toMatchObject({ status: 'paid', amount_received: o.total })
  })

  it('refuses a network the shop does not take and a token not on it, with a 400', async () => {
    for (const [chain, token, error] of [
      ['polygon', 'USDT', 'Payments on Polygon PoS are not accepted by this shop'],
      ['base', 'USDT', 'USDT is not accepted on Base'],
    ] as const) {
      const res = await f.t.app.inject({
        method: 'POST',
        url: '/rpc/secure_create_order',
        payload: {
          p_email: 'b@example.com',
          p_items: [{ product: { id: 1 }, quantity: 1 }],
          p_total: 1,
          p_chain: chain,
          p_token: token,
        },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ success: false, error })
    }
  })

  it('short stays open until topped up; over pays; late (after the window, in grace) pays late', async () => {
    const usdt = f.nodes.bsc.tokens.USDT as Address
    const short = await f.placeOrder({ chain: 'bsc', token: 'USDT' })
    // Five dollars and one base unit short: more than the tolerance (2 dollars, 10 %) allows.
    await transfer(f.nodes.bsc.anvil, usdt, f.buyer, short.address, units(short.total - 5, 18) - 1n)
    await f.finalise('bsc')
    // What is missing is said in the token, to its last base unit.
    expect(await f.status(short.id)).toMatchObject({
      status: 'pending',
      shortfall: { token: 'USDT', missing: '5.000000000000000001' },
    })
    await transfer(f.nodes.bsc.anvil, usdt, f.buyer, short.address, units(5, 18) + 1n)
    await f.finalise('bsc')
    expect(await f.status(short.id)).toMatchObject({
      status: 'paid',
      amount_received: short.total,
      shortfall: null,
    })

    const over = await f.placeOrder({ chain: 'bsc', token: 'USDC' })
    await transfer(
      f.nodes.bsc.anvil,
      f.nodes.bsc.tokens.USDC,
      f.buyer,
      over.address,
      units(over.total + 5, 18),
    )
    await f.finalise('bsc')
    expect(await f.status(over.id)).toMatchObject({ status: 'paid', amount_received: over.total + 5 })

    const late = await f.placeOrder({ chain: 'base', token: 'USDC' })
    // The chain's clock passes the 30-minute window (the grace is 60 more).
    await f.nodes.base.anvil.client.increaseTime({ seconds: 31 * 60 })
    await transfer(f.nodes.base.anvil, f.nodes.base.tokens.USDC, f.buyer, late.address, units(late.total, 6))
    await f.finalise('base')
    expect(await f.status(late.id)).toMatchObject({ status: 'paid' })
    const [row] = await f.rows(sql`select late from orders where id = ${late.id}`)
    expect(row?.late).toBe(true)
  })

  it('never pays with a counterfeit USDT; a router’s transferFrom pays', async () => {
    const o = await f.placeOrder({ chain: 'bsc', token: 'USDT' })
    await transfer(f.nodes.bsc.anvil, f.nodes.bsc.fake, f.buyer, o.address, units(o.total, 18))
    await f.finalise('bsc')
    expect(await f.status(o.id)).toMatchObject({ status: 'pending', amount_received: 0 })
    expect(await ledgerOf(o.id)).toEqual([])
    const usdt = f.nodes.bsc.tokens.USDT as Address
    await approve(f.nodes.bsc.anvil, usdt, f.buyer, f.nodes.bsc.router, units(o.total, 18))
    const routed = await routerPay(
      f.nodes.bsc.anvil,
      f.nodes.bsc.router,
      f.other,
      usdt,
      f.buyer,
      o.address,
      units(o.total, 18),
    )
    await f.finalise('bsc')
    expect(await f.status(o.id)).toMatchObject({ status: 'paid', tx_hash: routed })
  })

  it('a reverted transfer never pays, and the buyer’s hash is told it failed', async () => {
    const o = await f.placeOrder({ chain: 'bsc', token: 'USDT' })
    // `other` holds no USDT: the transfer is mined and reverts.
    const failed = await revertedTransfer(
      f.nodes.bsc.anvil,
      f.nodes.bsc.tokens.USDT as Address,
      f.other,
      o.address,
      units(o.total, 18),
    )
    await f.finalise('bsc')
    expect(await f.status(o.id)).toMatchObject({ status: 'pending' })
    expect((await f.confirm(o.id, failed)).body).toEqual({
      success: false,
      error: 'This transaction failed on the blockchain',
    })
    expect(await ledgerOf(o.id)).toEqual([])
  })

  it('a USDT order on BNB Smart Chain is paid by USDC sent on Base to the same address', async () => {
    const o = await f.placeOrder({ chain: 'bsc', token: 'USDT' })
    const sent = await transfer(
      f.nodes.base.anvil,
      f.nodes.base.tokens.USDC,
      f.buyer,
      o.address,
      units(o.total, 6),
    )
    await f.finalise('base')
    expect(await f.status(o.id)).toMatchObject({ status: 'paid', amount_received: o.total, tx_hash: sent })
    expect(await ledgerOf(o.id)).toMatchObject([{ chain: 'base', token: 'USDC', tx_id: sent }])
  })

  it('a sighting a reorganisation below the depth removes is dropped; only the surviving transfer pays', async () => {
    // The watcher's clock runs a minute ahead at each reading: every pass is due a look.
    let clock = Date.now()
    const watcher = createSightingWatcher({
      db: f.t.database.db,
      chain: f.t.app.services.chains.require('bsc'),
      now: () => {
        clock += 60_000
        return clock
      },
    })
    const o = await f.placeOrder({ chain: 'bsc', token: 'USDT' })
    const usdt = f.nodes.bsc.tokens.USDT as Address
    await watcher.runOnce()
    const doomed = await transfer(f.nodes.bsc.anvil, usdt, f.buyer, o.address, units(o.total - 5, 18))
    await watcher.runOnce()
    const seen = await f.rows(
      sql`select tx_id, status, chain from payment_sightings where order_id = ${o.id}`,
    )
    expect(seen).toEqual([{ tx_id: doomed, status: 'seen', chain: 'bsc' }])
    // The buyer's page: detected, confirming (not final yet), never paid by it.
    expect(await f.status(o.id)).toMatchObject({
      status: 'pending',
      sightings: { confirming: { amount_seen: Math.round((o.total - 5) * 100) / 100 }, dropped: false },
    })
    await f.nodes.bsc.anvil.client.request({ method: 'anvil_reorg', params: [1, []] } as never)
    // Anvil stamps the replacement block with its parent's time; a real chain's next block is later.
    const parent = await f.nodes.bsc.anvil.client.getBlock()
    const nowS = BigInt(Math.ceil(Date.now() / 1000))
    await f.nodes.bsc.anvil.client.setNextBlockTimestamp({
      timestamp: nowS > parent.timestamp ? nowS : parent.timestamp + 1n,
    })
    const survivor = await transfer(f.nodes.bsc.anvil, usdt, f.buyer, o.address, units(o.total, 18))
    await f.finalise('bsc')
    await watcher.runOnce()
    expect(await f.status(o.id)).toMatchObject({
      status: 'paid',
      amount_received: o.total,
      tx_hash: survivor,
    })
    expect((await ledgerOf(o.id)).map((r) => r.tx_id)).toEqual([survivor])
    const after = await f.rows(sql`select tx_id, status from payment_sightings where tx_id = ${doomed}`)
    expect(after).toEqual([{ tx_id: doomed, status: 'dropped' }])
    await watcher.stop()
  })

  it('a reorganisation past the checkpoint stops that chain’s follower and writes nothing; Base carries on', async () => {
    const o = await f.placeOrder({ chain: 'bsc', token: 'USDT' })
    const [before] = await f.rows(
      sql`select checkpoint_block, checkpoint_block_id from follower_state where chain = 'bsc'`,
    )
    await f.nodes.bsc.anvil.client.request({ method: 'anvil_reorg', params: [DEPTH + 2, []] } as never)
    await transfer(
      f.nodes.bsc.anvil,
      f.nodes.bsc.tokens.USDT as Address,
      f.buyer,
      o.address,
      units(o.total, 18),
    )
    const results = await f.finalise('bsc')
    expect(results.at(-1)?.error?.kind).toBe('reorg')
    expect(f.nodes.bsc.follower.halted()).toMatch(/does not follow the recorded block/)
    expect((await f.nodes.bsc.follower.runOnce()).error?.kind).toBe('reorg')
    const [after] = await f.rows(
      sql`select checkpoint_block, checkpoint_block_id from follower_state where chain = 'bsc'`,
    )
    expect(after).toEqual(before)
    expect(await ledgerOf(o.id)).toEqual([])
    expect(await f.status(o.id)).toMatchObject({ status: 'pending' })
    // The other chain's follower is its own.
    const other = await f.placeOrder({ chain: 'base', token: 'USDC' })
    await transfer(
      f.nodes.base.anvil,
      f.nodes.base.tokens.USDC,
      f.buyer,
      other.address,
      units(other.total, 6),
    )
    await f.finalise('base')
    expect(await f.status(other.id)).toMatchObject({ status: 'paid' })
  })
})
