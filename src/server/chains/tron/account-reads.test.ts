import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allAlertsOn } from '../../../../tests/support/alerts'
import { createPaymentFixture, type PaymentFixture } from '../../../../tests/support/payment-fixture'
import { engines } from '../../../../tests/support/test-db'
import { waitFor } from '../../../../tests/support/wait'
import { saveSettings } from '../../settings/settings'
import { type AccountReadPace, createAccountReads, openReadEveryMs } from '../account-reads'
import { createChainFollower } from '../chain-follower'

// The account reads (decision 054): payouts made by a contract whose call data names no recipient
// (the devchain's `unnamed: true`, and its swap-like payout with internal TRX legs) are not seen by
// the follower's cheaper read; the reads record them, for an open order within the stated bound,
// for an idle address by the daily read (no_order, with the operator's alert), and a restart neither
// reads again what was read nor misses what was not.

const ROUTER = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL'
const DAY = 86_400_000
const LISTS = ['/v1/accounts/:address/transactions/trc20', '/v1/accounts/:address/transactions'] as const

describe('the pace formula', () => {
  it('reads every open order each minute up to its day share, then spreads the share', () => {
    const pace: AccountReadPace = { openEveryMs: 60_000, openPerDay: 17_280, idleEveryMs: DAY }
    expect(openReadEveryMs(1, pace)).toBe(60_000)
    expect(openReadEveryMs(6, pace)).toBe(60_000)
    expect(openReadEveryMs(10, pace)).toBe(100_000)
    expect(openReadEveryMs(100, pace)).toBe(1_000_000)
  })
})

describe.each(engines)('account reads on %s', (engine) => {
  describe('an open order, on the follower’s own clock', () => {
    let f: PaymentFixture
    beforeAll(async () => {
      f = await createPaymentFixture(engine, {
        autoMine: true,
        blockIntervalMs: 100,
        noisePerBlock: 2,
        pool: 12,
      })
    })
    afterAll(() => f.close())

    it('a swap-like payout naming nobody pays both open orders (USDT and internal TRX) within the bound', async () => {
      const tron = f.t.app.services.chains.require('tron')
      const pace = { openEveryMs: 1000, openPerDay: 10_000_000, idleEveryMs: DAY }
      const tickMs = 250
      const follower = createChainFollower({
        db: f.t.database.db,
        chain: tron,
        rules: f.t.app.services.rules,
        instanceId: f.follower.instanceId,
        batchBlocks: 20,
        intervalMs: 50,
        blockIntervalMs: 100,
        idleEveryMs: 0,
        leaseMs: 5000,
        safetyNet: createAccountReads({
          db: f.t.database.db,
          chain: tron,
          rules: f.t.app.services.rules,
          pace,
        }),
        safetyNetEveryMs: tickMs,
      })
      await f.followUntil(f.chain.heights().solid)
      const usdtOrder = await f.placeOrder()
      const trxOrder = await f.placeOrder()
      const plainOrder = await f.placeOrder()
      follower.start()
      try {
        // What the follower itself takes on this machine now, for a payment it reads in the block:
        // solidification and its own delays.
        const plainAt = Date.now()
        await f.send({ to: plainOrder.address, amount: plainOrder.total.toFixed(2) })
        await waitFor(
          'the plain payment paid',
          async () => (await f.status(plainOrder.id)).status === 'paid',
          30_000,
        )
        const followerMs = Date.now() - plainAt
        const sentAt = Date.now()
        const sent = await f.send({
          to: usdtOrder.address,
          amount: usdtOrder.total.toFixed(2),
          via_contract: ROUTER,
          unnamed: true,
          swap_trx: [{ to: trxOrder.address, amount: trxOrder.trxAmount as string }],
        })
        const bothPaid = async () =>
          (await f.status(usdtOrder.id)).status === 'paid' && (await f.status(trxOrder.id)).status === 'paid'
        await waitFor('both orders paid', bothPaid, 30_000)
        const paidAt = Date.now()
        // The bound (decision 054): one pace and one tick after what the follower takes for a payment
        // it reads itself (solidification and this machine's delays), plus that machine time once
        // more for the read's own work (the transaction and the ledger, as the follower's), and 3 s.
        // Without the reads nothing records it while the orders are open (30 minutes).
        const boundMs = 2 * followerMs + pace.openEveryMs + tickMs + 3000
        expect(paidAt - sentAt).toBeLessThan(boundMs)
        const rows = await f.rows(sql`select * from payments where tx_id = ${sent.txId} order by source`)
        expect(rows).toMatchObject([
          {
            source: 'internal',
            token: 'TRX',
            to_address: trxOrder.address,
            order_id: trxOrder.id,
            status: 'credited',
          },
          {
            source: 'log',
            token: 'USDT',
            to_address: usdtOrder.address,
            order_id: usdtOrder.id,
            status: 'credited',
          },
        ])
        // The buyer's page reads the same status, with the transaction.
        expect(await f.status(usdtOrder.id)).toMatchObject({ status: 'paid', tx_hash: sent.txId })
      } finally {
        await follower.stop()
      }
    }, 120_000)
  })

  describe('idle addresses and a restart', () => {
    let f: PaymentFixture
    let clock = Date.now()
    const pace = { openEveryMs: 60_000, openPerDay: 17_280, idleEveryMs: DAY }
    const reads = () =>
      createAccountReads({
        db: f.t.database.db,
        chain: f.t.app.services.chains.require('tron'),
        rules: f.t.app.services.rules,
        pace,
        now: () => clock,
        indexLagMs: 0,
      })
    const requests = () => {
      const { byPath } = f.chain.stats()
      return LISTS.map((p) => byPath[p] ?? 0)
    }
    const ledgerOf = (txId: string) =>
      f.rows(sql`select * from payments where tx_id = ${txId} order by source`)

    beforeAll(async () => {
      f = await createPaymentFixture(engine, { pool: 12, noisePerBlock: 2 })
      await saveSettings(f.t.database.db, {
        operatorEmail: 'ops@example.com',
        telegramBotToken: null,
        telegramChatId: null,
        alerts: allAlertsOn,
        lowStockThreshold: 5,
        refuseCheckoutsWhileDelayed: false,
      })
    })
    afterAll(() => f.close())

    it('reads every address at start, an idle one again a day later: recorded as no_order with the alert; a restart reads nothing twice and misses nothing', async () => {
      const first = reads()
      // At start every address is unread: ten a pass, oldest first, two lists each.
      f.chain.resetStats()
      expect(await first.run()).toBe(0)
      expect(requests()).toEqual([10, 10])
      expect(await first.run()).toBe(0)
      expect(requests()).toEqual([12, 12])
      expect(await first.run()).toBe(0)
      expect(requests()).toEqual([12, 12]) // nothing is due until a day has passed
      const stored = await f.rows(sql`select * from account_reads where chain = 'tron'`)
      expect(stored).toHaveLength(12)

      // A payout into an address that holds no order, and one into an open order's address.
      const open = await f.placeOrder()
      const [idle] = (await f.rows(
        sql`select address from wallet_addresses where leased_order_id is null order by address limit 1`,
      )) as { address: string }[]
      expect(open.address).not.toBe(idle?.address)
      const toIdle = await f.pay({
        to: idle?.address as string,
        amount: '7',
        via_contract: ROUTER,
        unnamed: true,
        swap_trx: [{ to: idle?.address as string, amount: '5' }],
      })
      expect(await ledgerOf(toIdle.txId)).toEqual([])

      // The shop restarts: a new instance knows only what is stored. Nothing is due yet.
      const second = reads()
      f.chain.resetStats()
      expect(await second.run()).toBe(0)
      expect(requests()).toEqual([0, 0])

      // The open order's address is due after a minute: it alone is read.
      const toOpen = await f.pay({
        to: open.address,
        amount: open.total.toFixed(2),
        via_contract: ROUTER,
        unnamed: true,
      })
      clock += pace.openEveryMs
      expect(await second.run()).toBe(1)
      expect(requests()).toEqual([1, 1])
      expect(await f.status(open.id)).toMatchObject({ status: 'paid', tx_hash: toOpen.txId })
      expect(await ledgerOf(toIdle.txId)).toEqual([])

      // A day on, every address is read again from where it was: the idle one's payout is recorded
      // once, as matching no order, and the operator is told.
      clock += DAY
      f.chain.resetStats()
      let recorded = 0
      for (let pass = 0; pass < 3; pass++) recorded += await second.run()
      expect(recorded).toBe(2)
      expect(requests()).toEqual([12, 12])
      expect(await ledgerOf(toIdle.txId)).toMatchObject([
        {
          source: 'internal',
          token: 'TRX',
          to_address: idle?.address,
          order_id: null,
          status: 'unmatched',
          reason: 'no_order',
        },
        {
          source: 'log',
          token: 'USDT',
          to_address: idle?.address,
          order_id: null,
          status: 'unmatched',
          reason: 'no_order',
        },
      ])
      const alerts = await f.rows(
        sql`select subject_key from operator_alerts where kind = 'payment_unmatched' and subject_key like ${`${toIdle.txId}|%`}`,
      )
      expect(alerts).toHaveLength(2)
      // Read again (a third instance, after another day): nothing new, nothing twice.
      clock += DAY
      const third = reads()
      for (let pass = 0; pass < 3; pass++) expect(await third.run()).toBe(0)
      expect(await ledgerOf(toIdle.txId)).toHaveLength(2)
      expect(await ledgerOf(toOpen.txId)).toHaveLength(1)
    }, 120_000)
  })
})
