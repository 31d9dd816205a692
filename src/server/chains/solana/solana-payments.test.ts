import { address } from '@solana/kit'
import {
  getCreateAssociatedTokenIdempotentInstruction,
  getRecoverNestedAssociatedTokenInstructionAsync,
} from '@solana-program/token'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createSolanaFixture,
  type SolanaFixture,
  units,
} from '../../../../tests/support/solana/solana-fixture'
import { engines } from '../../../../tests/support/test-db'
import { ataOf } from '../../../../tools/solana-standin/transfers'
import { createChainFollower } from '../chain-follower'
import { createSightingWatcher } from '../sighting-watcher'

// Paying orders on Solana end to end: the real app (secure_create_order, the buyer's status and
// signature), the Solana follower, on the stand-in cluster running the real SPL Token program and
// a real database.

describe.each(engines)('Solana payments (%s)', (engine) => {
  let f: SolanaFixture
  beforeAll(async () => {
    f = await createSolanaFixture(engine)
  }, 180_000)
  afterAll(async () => {
    await f?.close()
  })

  const ledgerOf = (orderId: string) =>
    f.rows(
      sql`select chain, token, amount_units, status, tx_id, source from payments where order_id = ${orderId} order by id`,
    )

  it('a USDT order asks for a Solana Pay transfer request; an exact payment pays it at finalized, not before', async () => {
    const o = await f.placeOrder('USDT')
    const due = units(o.total)
    expect(f.keys.has(o.address)).toBe(true)
    expect(o.body).toMatchObject({
      chain: 'solana',
      token: 'USDT',
      token_decimals: 6,
      amount_units: due.toString(),
      // No depth to count: the page says about how long finality takes.
      confirm_blocks: null,
      confirm_seconds: 13,
    })
    expect(o.body.payment_uri).toBe(
      `solana:${o.address}?amount=${o.total}&spl-token=${f.standin.mints.usdt}&reference=${o.address}&label=Test%20Shop`,
    )
    const sent = await f.pay(o.address, f.standin.mints.usdt, due)
    expect(sent.err).toBeNull()
    // Confirmed, not finalized: nothing pays yet.
    f.standin.advance(1)
    await f.follower.runOnce()
    expect(await f.status(o.id)).toMatchObject({ status: 'pending' })
    await f.finalise()
    expect(await f.status(o.id)).toMatchObject({
      status: 'paid',
      amount_received: o.total,
      tx_hash: sent.signature,
    })
    expect(await ledgerOf(o.id)).toEqual([
      {
        chain: 'solana',
        token: 'USDT',
        amount_units: due.toString(),
        status: 'credited',
        tx_id: sent.signature,
        source: 'log',
      },
    ])
  })

  it('short stays open until topped up (with the older transfer); over pays; late (after the window, in grace) pays late', async () => {
    const short = await f.placeOrder('USDT')
    await f.pay(short.address, f.standin.mints.usdt, units(short.total - 5), { kind: 'transfer' })
    await f.finalise()
    expect(await f.status(short.id)).toMatchObject({
      status: 'pending',
      amount_received: Math.round((short.total - 5) * 100) / 100,
      // The page's Solana Pay request now asks for the 5 USDT missing, not the order's total.
      shortfall: {
        token: 'USDT',
        missing: '5.00',
        missingUnits: '5000000',
        paymentUri: `solana:${short.address}?amount=5&spl-token=${f.standin.mints.usdt}&reference=${short.address}&label=Test%20Shop`,
      },
    })
    await f.pay(short.address, f.standin.mints.usdt, units(5))
    await f.finalise()
    expect(await f.status(short.id)).toMatchObject({ status: 'paid', amount_received: short.total })

    const over = await f.placeOrder('USDC')
    await f.pay(over.address, f.standin.mints.usdc, units(over.total + 5))
    await f.finalise()
    expect(await f.status(over.id)).toMatchObject({ status: 'paid', amount_received: over.total + 5 })

    const late = await f.placeOrder('USDC')
    // The cluster's clock passes the 30-minute window (the grace is 60 more).
    f.standin.warp(31 * 60_000)
    await f.pay(late.address, f.standin.mints.usdc, units(late.total))
    await f.finalise()
    expect(await f.status(late.id)).toMatchObject({ status: 'paid' })
    const [row] = await f.rows(sql`select late from orders where id = ${late.id}`)
    expect(row?.late).toBe(true)
  })

  it('never pays with a counterfeit USDT mint; USDC sent to a USDT order pays it', async () => {
    const o = await f.placeOrder('USDT')
    await f.pay(o.address, f.standin.mints.counterfeitUsdt, units(o.total))
    await f.finalise()
    expect(await f.status(o.id)).toMatchObject({ status: 'pending', amount_received: 0 })
    expect(await ledgerOf(o.id)).toEqual([])
    const sent = await f.pay(o.address, f.standin.mints.usdc, units(o.total))
    await f.finalise()
    expect(await f.status(o.id)).toMatchObject({ status: 'paid', tx_hash: sent.signature })
    expect(await ledgerOf(o.id)).toMatchObject([{ token: 'USDC', tx_id: sent.signature }])
  })

  it('a failed transfer never pays, and the buyer\u2019s signature is told it failed', async () => {
    const o = await f.placeOrder('USDT')
    // `broke` holds no USDT: the token program refuses the transfer, the transaction lands failed.
    await f.standin.mintTo(f.standin.mints.usdt, f.broke.address, 1n)
    const failed = await f.pay(o.address, f.standin.mints.usdt, units(o.total), { from: f.broke })
    expect(failed.err).toEqual({ InstructionError: [1, { Custom: 1 }] })
    await f.finalise()
    expect(await f.status(o.id)).toMatchObject({ status: 'pending' })
    expect((await f.confirm(o.id, failed.signature)).body).toEqual({
      success: false,
      error: 'This transaction failed on the blockchain',
    })
    expect(await ledgerOf(o.id)).toEqual([])
  })

  it('a transfer another program makes (an inner instruction) pays', async () => {
    const o = await f.placeOrder('USDT')
    const wallet = f.keys.get(o.address)
    if (!wallet) throw new Error('the order address is not a test key')
    f.standin.airdrop(o.address)
    // USDT sent by mistake to the token account of the order's USDC account (a "nested" account):
    // the Associated Token Account program moves it to the order's USDT account with a
    // transferChecked call of its own.
    const usdcAccount = await ataOf(o.address, f.standin.mints.usdc)
    await f.standin.mintTo(f.standin.mints.usdc, o.address, 0n)
    await f.standin.mintTo(f.standin.mints.usdt, usdcAccount, units(o.total))
    await f.finalise()
    expect(await f.status(o.id)).toMatchObject({ status: 'pending', amount_received: 0 })
    const recovered = await f.standin.run(wallet, [
      getCreateAssociatedTokenIdempotentInstruction({
        payer: wallet,
        ata: await ataOf(o.address, f.standin.mints.usdt),
        owner: address(o.address),
        mint: address(f.standin.mints.usdt),
      }),
      await getRecoverNestedAssociatedTokenInstructionAsync({
        nestedTokenMintAddress: address(f.standin.mints.usdt),
        ownerTokenMintAddress: address(f.standin.mints.usdc),
        walletAddress: wallet,
      }),
    ])
    expect(recovered.err, JSON.stringify(f.standin.transaction(recovered.signature)?.logMessages)).toBeNull()
    await f.finalise()
    expect(await f.status(o.id)).toMatchObject({ status: 'paid', amount_received: o.total })
    expect(await ledgerOf(o.id)).toMatchObject([{ tx_id: recovered.signature, token: 'USDT' }])
  })

  /** The shop's sighting watcher on Solana, its clock a minute on at each look (the listings' freshness never holds it back). */
  const minuteWatcher = () => {
    let clock = Date.now()
    return createSightingWatcher({
      db: f.t.database.db,
      chain: f.t.app.services.chains.require('solana'),
      now: () => {
        clock += 60_000
        return clock
      },
    })
  }

  it('shows "confirming" at the confirmed commitment and pays at finalized', async () => {
    const watcher = minuteWatcher()
    const o = await f.placeOrder('USDC')
    await watcher.runOnce()
    const sent = await f.pay(o.address, f.standin.mints.usdc, units(o.total))
    f.standin.advance(1)
    // The listings stay fresh for SOLANA_POLL_MS; the watcher looks again until it has seen it.
    await expect
      .poll(
        async () => {
          await watcher.runOnce()
          return f.rows(sql`select tx_id, status, chain from payment_sightings where order_id = ${o.id}`)
        },
        { timeout: 10_000, interval: 50 },
      )
      .toEqual([{ tx_id: sent.signature, status: 'seen', chain: 'solana' }])
    expect(await f.status(o.id)).toMatchObject({
      status: 'pending',
      sightings: { confirming: { amount_seen: o.total } },
    })
    await f.finalise()
    await watcher.runOnce()
    expect(await f.status(o.id)).toMatchObject({ status: 'paid' })
    expect(await f.rows(sql`select status from payment_sightings where order_id = ${o.id}`)).toEqual([
      { status: 'confirmed' },
    ])
    await watcher.stop()
  })

  it('a payment seen "confirming" and then taken back by a fork is withdrawn: its sighting dropped, nothing in the ledger', async () => {
    const watcher = minuteWatcher()
    const o = await f.placeOrder('USDT')
    await watcher.runOnce()
    const sent = await f.pay(o.address, f.standin.mints.usdt, units(o.total))
    f.standin.advance(1)
    await expect
      .poll(
        async () => {
          await watcher.runOnce()
          return f.rows(sql`select tx_id, status from payment_sightings where order_id = ${o.id}`)
        },
        { timeout: 10_000, interval: 50 },
      )
      .toEqual([{ tx_id: sent.signature, status: 'seen' }])
    f.standin.drop(sent.signature)
    const passes = await f.finalise()
    expect(passes.filter((p) => p.error)).toEqual([])
    await watcher.runOnce()
    expect(await f.rows(sql`select status from payment_sightings where order_id = ${o.id}`)).toEqual([
      { status: 'dropped' },
    ])
    expect(await ledgerOf(o.id)).toEqual([])
    expect(await f.status(o.id)).toMatchObject({ status: 'pending' })
    await watcher.stop()
  })

  it('a provider down: the other answers and the payment is recorded; the first shows its failure', async () => {
    const o = await f.placeOrder('USDT')
    f.fronts[0].setFault({ down: true })
    try {
      const sent = await f.pay(o.address, f.standin.mints.usdt, units(o.total))
      const before = f.fronts[1].requests()
      await f.finalise()
      expect(await f.status(o.id)).toMatchObject({ status: 'paid', tx_hash: sent.signature })
      expect(f.fronts[1].requests()).toBeGreaterThan(before)
      const health = f.t.app.services.chains.require('solana').providers.health()
      expect(health.find((h) => h.name === 'first')?.lastError?.message).toMatch(/HTTP 503/)
      expect(health.find((h) => h.name === 'second')?.lastError).toBeNull()
    } finally {
      f.fronts[0].setFault({ down: false })
    }
  })

  it('a follower that restarts from an older checkpoint records each transfer once', async () => {
    const o = await f.placeOrder('USDT')
    const [state] = await f.rows(sql`select checkpoint_block from follower_state where chain = 'solana'`)
    const sent = await f.pay(o.address, f.standin.mints.usdt, units(o.total))
    await f.finalise()
    expect(await ledgerOf(o.id)).toHaveLength(1)
    // As if the process died after reading the payment but before its checkpoint moved past it.
    await f.rows(
      sql`update follower_state set checkpoint_block = ${Number(state?.checkpoint_block)} where chain = 'solana'`,
    )
    await f.follower.stop()
    const again = createChainFollower({
      db: f.t.database.db,
      chain: f.t.app.services.chains.require('solana'),
      rules: f.t.app.services.rules,
      leaseMs: 5000,
    })
    f.follower = again
    await f.finalise()
    expect(await ledgerOf(o.id)).toEqual([
      expect.objectContaining({ tx_id: sent.signature, status: 'credited' }),
    ])
    expect(await f.status(o.id)).toMatchObject({ status: 'paid', amount_received: o.total })
  })

  it('proves a refund by watching the buyer\u2019s address and by its signature', async () => {
    const o = await f.placeOrder('USDT')
    await f.pay(o.address, f.standin.mints.usdt, units(o.total))
    await f.finalise()
    const since = Date.now() - 1000
    const shop = f.keys.get(o.address)
    if (!shop) throw new Error('the order address is not a test key')
    f.standin.airdrop(o.address)
    const refund = await f.pay(f.buyer.address, f.standin.mints.usdt, units(3), { from: shop })
    expect(refund.err).toBeNull()
    f.standin.advance(5)
    const chain = f.t.app.services.chains.require('solana')
    const watched = await chain.transfersTo(f.buyer.address, 'USDT', since)
    expect(watched).toEqual([
      expect.objectContaining({ txId: refund.signature, from: o.address, value: units(3) }),
    ])
    expect(await chain.transfersTo(f.buyer.address, 'USDC', since)).toEqual([])
    const looked = await chain.lookupTransaction(refund.signature, { watch: new Set() })
    expect(looked).toMatchObject({
      status: 'success',
      state: 'final',
      success: true,
      transfers: [
        { txId: refund.signature, token: 'USDT', to: f.buyer.address, from: o.address, value: units(3) },
      ],
    })
    // The signature is case-sensitive: the same text in another case names no transaction.
    expect(chain.normalizeTxHash(` ${refund.signature} `)).toBe(refund.signature)
    const swapped = [...refund.signature]
      .map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
      .join('')
    expect(await chain.lookupTransaction(swapped, { watch: new Set() })).toMatchObject({ state: 'unknown' })
  })

  it('reconciles a period from the chain: the credited transfers, never the counterfeit', async () => {
    const o = await f.placeOrder('USDC')
    // The cluster's clock (an earlier test moved it forward).
    const from = (f.standin.slotTime(f.standin.slot('processed')) ?? 0) - 1000
    await f.pay(o.address, f.standin.mints.counterfeitUsdt, units(1))
    const a = await f.pay(o.address, f.standin.mints.usdc, units(2))
    const b = await f.pay(o.address, f.standin.mints.usdt, units(o.total - 2), { kind: 'transfer' })
    await f.finalise()
    const chain = f.t.app.services.chains.require('solana')
    const got = await chain.receivedInPeriod([o.address], { fromMs: from, toMs: from + 3_600_000 })
    expect(got.unread).toEqual([])
    expect(got.transfers.map((t) => [t.txId, t.token, t.value]).sort()).toEqual(
      [
        [a.signature, 'USDC', units(2)],
        [b.signature, 'USDT', units(o.total - 2)],
      ].sort(),
    )
    const ledger = await ledgerOf(o.id)
    expect(ledger.map((r) => r.tx_id).sort()).toEqual([a.signature, b.signature].sort())
  })
})
