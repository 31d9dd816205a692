import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createPaymentFixture,
  type PaymentFixture,
  testAddresses,
} from '../../../tests/support/payment-fixture'
import { engines } from '../../../tests/support/test-db'
import { waitFor } from '../../../tests/support/wait'

// A returning browser's new checkout keeps the address of the order it gives back only when nothing
// was seen for that order (decision 041): with a payment to it in flight (a live sighting at the head,
// or a ledger row) the old order stays pending and is paid when its transfer is final, and the new
// order gets an address of its own. Against the devchain, whose blocks the test mines (a transfer
// goes into the next block; it is final once the test mines LAG blocks on top: "in flight" is
// exactly the time between the two, however busy the machine), the sighting watcher and the chain
// follower on their timers, and the buyer's calls over real HTTP with the browser's checkout cookie.

const LAG = 19 // blocks until a transfer is final, about a minute on TRON
const [WALLET, POISONER] = testAddresses(2, 'give-back senders') as [string, string]
const SLOW = 120_000

type Body = Record<string, unknown>
interface Order {
  id: string
  secret: string
  address: string
  total: number
  body: Body
  /** When the answer came (ms). */
  placedAt: number
}

describe.each(engines)('a new checkout and a payment in flight, on %s', (engine) => {
  let f: PaymentFixture
  let base = ''
  let price = 0
  let productId = 0

  beforeAll(async () => {
    f = await createPaymentFixture(engine, {
      // Blocks 1 ms apart, only when mined: chain time stays on the wall clock.
      blockIntervalMs: 1,
      solidifyLag: LAG,
      // The sighting watcher looks at the head every 100 ms (the shortest block time it takes).
      env: { CHAIN_BLOCK_MS: '100' },
    })
    const product = f.products[0] as { id: number; price: number }
    price = product.price
    productId = product.id
    base = await f.t.app.listen({ port: 0, host: '127.0.0.1' })
    f.t.app.services.sightings?.start()
  }, SLOW)
  afterAll(async () => {
    await f.t.app.services.sightings?.stop()
    await f.close()
  })

  /** A browser: its checkout cookie, and the two calls the checkout page makes. */
  function browser() {
    let cookie = ''
    async function call(name: string, payload: Body): Promise<{ status: number; body: Body }> {
      const res = await fetch(`${base}/rpc/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        body: JSON.stringify(payload),
      })
      for (const set of res.headers.getSetCookie()) {
        if (set.startsWith('stablecart_checkout=')) cookie = set.split(';')[0] as string
      }
      return { status: res.status, body: (await res.json()) as Body }
    }
    return {
      async checkout(quantity = 1): Promise<Order> {
        const shown = await call('secure_get_wallet_address', {})
        expect(shown.body.success).toBe(true)
        const total = Math.round(price * quantity * 100) / 100
        const { status, body } = await call('secure_create_order', {
          p_email: 'buyer@example.com',
          p_items: [{ product: { id: productId }, quantity }],
          p_total: total,
          p_wallet_address: shown.body.wallet_address,
          p_idempotency_key: randomUUID(),
        })
        expect(status).toBe(200)
        expect(body.success).toBe(true)
        return {
          id: body.order_id as string,
          secret: body.order_secret as string,
          address: body.wallet_address as string,
          total,
          body,
          placedAt: Date.now(),
        }
      },
      async status(order: Order): Promise<Body> {
        return (await call('secure_get_order_status', { p_order_id: order.id, p_order_secret: order.secret }))
          .body
      },
    }
  }
  type Browser = ReturnType<typeof browser>

  const watching = (order: Order) =>
    waitFor(
      'the sighting watcher to look since the order was placed',
      () => (f.t.app.services.sightings?.status().lastLookAt ?? 0) > order.placedAt,
      SLOW,
    )
  /**
   * Sends from the buyer's wallet once the shop watches the order's address (a buyer pays seconds
   * after the page shows it; the watcher, idle while no order is open, starts at the head), and
   * mines the transfer's block: it is at the head, in flight until final() is called.
   */
  async function send(order: Order, amount: number) {
    await watching(order)
    const sent = await f.send({ to: order.address, amount: amount.toFixed(2), from: WALLET })
    f.chain.mine(1)
    await waitFor('the transfer in a head block', () => f.chain.heights().head >= sent.block, SLOW)
    return sent
  }
  /** The chain moves on: every transfer sent so far is final. */
  const final = () => f.chain.mine(LAG + 1)
  /** What the buyer's payment page shows: the transfer detected and confirming. */
  const confirming = (b: Browser, order: Order) =>
    waitFor(
      'the payment page to show the transfer confirming',
      async () => ((await b.status(order)).sightings as { confirming: unknown } | undefined)?.confirming,
      SLOW,
    )
  const statusOf = async (id: string) => (await f.order(id)).status as string
  /** Makes every transfer so far final, then waits for the order to be paid. */
  const paid = (id: string) => {
    final()
    return waitFor(`order ${id} paid`, async () => (await statusOf(id)) === 'paid', SLOW)
  }
  const follower = async (block: number) => {
    final()
    return waitFor(
      `the follower past block ${block}`,
      async () =>
        Number((await f.rows(sql`select checkpoint_block from follower_state`))[0]?.checkpoint_block) >=
        block,
      SLOW,
    )
  }
  const ledgerOf = (id: string) =>
    f.rows(sql`select status, reason, amount_units, tx_id, created_at from payments where order_id = ${id}`)
  const mailsOf = async (id: string) =>
    (await f.rows(sql`select id from mail_outbox where order_id = ${id}`)).length
  const leasedTo = async (address: string) =>
    (await f.rows(sql`select leased_order_id from wallet_addresses where address = ${address}`))[0]
      ?.leased_order_id

  /**
   * No address went to an order inside an earlier order's cool-down, except by a give-back (the
   * earlier order's cool-down then ends where the next lease starts), and every transfer from the
   * buyer's wallet was credited: none held, none after a cancel.
   */
  async function historyIsClean() {
    const leases = await f.rows(
      sql`select address, order_id, started_at, ended_at, cooldown_until from address_leases order by address, started_at, id`,
    )
    for (const [i, next] of leases.entries()) {
      const prev = leases[i - 1]
      if (!prev || prev.address !== next.address) continue
      expect(prev.ended_at).not.toBeNull()
      expect(new Date(next.started_at as string).getTime()).toBeGreaterThanOrEqual(
        new Date(prev.cooldown_until as string).getTime(),
      )
    }
    expect(
      await f.rows(
        sql`select tx_id, reason from payments where status = 'unmatched' and from_address <> ${POISONER}`,
      ),
    ).toEqual([])
  }

  it(
    'pay A, start B before A is final: A is paid once, B has its own address and is paid from the same wallet',
    async () => {
      f.follower.start()
      const buyer = browser()
      const a = await buyer.checkout()
      const sentA = await send(a, a.total)
      await confirming(buyer, a)
      const b = await buyer.checkout()
      // A is kept: pending with its own address; B has another, and its answer says why.
      expect(b.address).not.toBe(a.address)
      expect(b.body.earlier_payment_confirming).toBe(true)
      expect(await leasedTo(a.address)).toBe(a.id)

      await paid(a.id)
      // A's transfer was in flight when B was placed: the ledger recorded it only afterwards.
      const [rowA] = await ledgerOf(a.id)
      expect(rowA).toMatchObject({ status: 'credited', tx_id: sentA.txId })
      const placedB = new Date((await f.order(b.id)).created_at as string).getTime()
      expect(new Date(rowA?.created_at as string).getTime()).toBeGreaterThan(placedB)

      const sentB = await send(b, b.total)
      await paid(b.id)
      expect(await ledgerOf(b.id)).toEqual([
        expect.objectContaining({ status: 'credited', tx_id: sentB.txId }),
      ])
      expect(await ledgerOf(a.id)).toHaveLength(1)
      expect([await mailsOf(a.id), await mailsOf(b.id)]).toEqual([1, 1])
      await historyIsClean()
      await f.follower.stop()
    },
    SLOW,
  )

  it(
    "A's transfer only at the head when B starts (the follower trails): A stays pending and is paid when final",
    async () => {
      const buyer = browser()
      const a = await buyer.checkout()
      const sentA = await send(a, a.total)
      await confirming(buyer, a)
      const b = await buyer.checkout()
      // Only the sighting knew: nothing in the ledger, A pending and holding its address.
      expect(await ledgerOf(a.id)).toEqual([])
      expect(await statusOf(a.id)).toBe('pending')
      expect(b.address).not.toBe(a.address)
      expect(b.body.earlier_payment_confirming).toBe(true)
      expect(await leasedTo(a.address)).toBe(a.id)

      f.follower.start()
      await paid(a.id)
      expect(await ledgerOf(a.id)).toEqual([
        expect.objectContaining({ status: 'credited', tx_id: sentA.txId }),
      ])
      await send(b, b.total)
      await paid(b.id)
      expect([await mailsOf(a.id), await mailsOf(b.id)]).toEqual([1, 1])
      await historyIsClean()
      await f.follower.stop()
    },
    SLOW,
  )

  it(
    'A paid short (part-paid): A keeps its address and stays pending, through its ledger row too',
    async () => {
      const buyer = browser()
      const a = await buyer.checkout(2)
      await send(a, price)
      await confirming(buyer, a)
      const b = await buyer.checkout()
      expect(b.address).not.toBe(a.address)
      expect(b.body.earlier_payment_confirming).toBe(true)

      f.follower.start()
      final()
      await waitFor('the part payment recorded', async () => (await ledgerOf(a.id)).length === 1, SLOW)
      // Part-paid, not cancelled, still holding its address.
      expect(await f.order(a.id)).toMatchObject({ status: 'pending', cancel_reason: null })
      expect(BigInt((await f.order(a.id)).amount_received_units as string)).toBe(
        BigInt(Math.round(price * 1e6)),
      )
      expect(await leasedTo(a.address)).toBe(a.id)
      // Now a ledger row names A: a third checkout keeps A again, and B (nothing sent) is given back.
      const c = await buyer.checkout()
      expect(await statusOf(a.id)).toBe('pending')
      expect(c.address).toBe(b.address)
      expect(c.body.earlier_payment_confirming).toBe(true)
      expect(await statusOf(b.id)).toBe('cancelled')

      // C from the same wallet is paid, not held; A's rest completes A.
      await send(c, c.total)
      await send(a, Math.round((a.total - price) * 100) / 100)
      await paid(c.id)
      await paid(a.id)
      expect([await mailsOf(a.id), await mailsOf(b.id), await mailsOf(c.id)]).toEqual([1, 0, 1])
      await historyIsClean()
      await f.follower.stop()
    },
    SLOW,
  )

  it(
    'the give-back with nothing sent still keeps the address, a transfer that failed or was dropped included',
    async () => {
      f.follower.start()
      const buyer = browser()
      const a = await buyer.checkout()
      // Sent nothing: B takes A's address at once, A is cancelled (decision 021 unchanged).
      const b = await buyer.checkout()
      expect(b.address).toBe(a.address)
      expect(b.body.earlier_payment_confirming).toBeUndefined()
      expect(await f.order(a.id)).toMatchObject({ status: 'cancelled', cancel_reason: 'buyer' })

      // A transfer that failed on chain moved nothing: C still takes B's address.
      await watching(b)
      const failed = await f.send({
        to: b.address,
        amount: b.total.toFixed(2),
        from: WALLET,
        failed: 'OUT_OF_ENERGY',
      })
      f.chain.mine(1)
      await waitFor(
        'the failed transfer seen',
        async () => ((await buyer.status(b)).sightings as { failed: unknown[] }).failed.length === 1,
        SLOW,
      )
      const c = await buyer.checkout()
      expect(c.address).toBe(a.address)
      expect(await statusOf(b.id)).toBe('cancelled')
      expect(failed.txId).toBeTruthy()

      // A transfer seen at the head, then dropped by the chain before it was final: nothing arrived,
      // and once the sighting is told dropped, D takes C's address.
      const vanished = await send(c, c.total)
      await confirming(buyer, c)
      f.chain.drop(vanished.txId)
      // Told dropped once the follower has read past its height and the ledger has nothing.
      final()
      await waitFor(
        'the sighting told dropped',
        async () => ((await buyer.status(c)).sightings as { dropped: boolean }).dropped,
        SLOW,
      )
      const d = await buyer.checkout()
      expect(d.address).toBe(a.address)
      expect(d.body.earlier_payment_confirming).toBeUndefined()
      expect(await statusOf(c.id)).toBe('cancelled')
      expect(await ledgerOf(c.id)).toEqual([])

      await send(d, d.total)
      await paid(d.id)
      await historyIsClean()
      await f.follower.stop()
    },
    SLOW,
  )

  it(
    'any ledger row keeps the old order, a zero-value transfer from a stranger included',
    async () => {
      f.follower.start()
      const buyer = browser()
      const a = await buyer.checkout()
      // Address poisoning: a look-alike sender's 0 USDT, recorded as zero_value against A.
      const zero = await f.send({ to: a.address, amount: '0', from: POISONER })
      f.chain.mine(1)
      await follower(zero.block)
      expect(await ledgerOf(a.id)).toEqual([expect.objectContaining({ reason: 'zero_value' })])
      const b = await buyer.checkout()
      expect(b.address).not.toBe(a.address)
      expect(await statusOf(a.id)).toBe('pending')
      await send(b, b.total)
      await paid(b.id)
      await historyIsClean()
      await f.follower.stop()
    },
    SLOW,
  )

  it(
    'three checkouts from one browser while payments are in flight: each transfer pays the order of its block time',
    async () => {
      f.follower.start()
      const buyer = browser()
      const a = await buyer.checkout()
      const sentA = await send(a, a.total)
      await confirming(buyer, a)
      const b = await buyer.checkout()
      const sentB = await send(b, b.total)
      await confirming(buyer, b)
      const c = await buyer.checkout()
      const sentC = await send(c, c.total)
      expect(new Set([a.address, b.address, c.address]).size).toBe(3)
      expect([b.body.earlier_payment_confirming, c.body.earlier_payment_confirming]).toEqual([true, true])

      await Promise.all([paid(a.id), paid(b.id), paid(c.id)])
      // Each transfer credited once, to the order that held its address at its block time.
      for (const [order, sent] of [
        [a, sentA],
        [b, sentB],
        [c, sentC],
      ] as const) {
        expect(await ledgerOf(order.id)).toEqual([
          expect.objectContaining({ status: 'credited', tx_id: sent.txId }),
        ])
        const [holder] = await f.rows(
          sql`select order_id from address_leases where address = ${order.address}
              and started_at <= to_timestamp(${sent.timestamp} / 1000.0)
              and (ended_at is null or cooldown_until >= to_timestamp(${sent.timestamp} / 1000.0))`,
        )
        expect(holder?.order_id).toBe(order.id)
        expect(await mailsOf(order.id)).toBe(1)
      }
      await historyIsClean()
      await f.follower.stop()
    },
    SLOW,
  )
})
