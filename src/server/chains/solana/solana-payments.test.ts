import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createSolanaFixture,
  type SolanaFixture,
  units,
} from '../../../../tests/support/solana/solana-fixture'
import { engines } from '../../../../tests/support/test-db'

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
    })
    expect(o.body.payment_uri).toBe(
      `solana:${o.address}?amount=${o.total}&spl-token=${f.standin.mints.usdt}&reference=${o.address}`,
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
})
