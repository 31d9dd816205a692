import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEvmFixture, DEPTH, type EvmFixture } from '../../../tests/support/evm/evm-fixture'
import { transfer } from '../../../tests/support/evm/tokens'
import { testAddresses } from '../../../tests/support/test-addresses'
import { adminSession, rpc } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { fillMessage, refundMessages } from '../../shared/refunds'
import { watchRefundsOnce } from './refund-verify'

// A refund of an order paid on an EVM chain (Anvil as BNB Smart Chain, 18-decimal USDT): started by
// the operator in the token and on the chain the buyer paid with, exact in its base units, refused a
// hash that pays another address, and proven by the watch once the operator pays the buyer.

const ADMIN = { username: 'owner', password: 'correct horse battery staple' }

describe.each(engines)('a refund on BNB Smart Chain (%s)', (engine) => {
  let f: EvmFixture
  let session: Record<string, string> = {}
  beforeAll(async () => {
    f = await createEvmFixture(engine, {
      env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, PUBLIC_URL: 'http://shop.test' },
    })
    session = await adminSession(f.t)
  }, 180_000)
  afterAll(async () => {
    await f?.close()
  })

  const admin = (name: string, payload: object) => rpc(f.t.app, name, payload, session)

  it('refunds 18-decimal USDT in full to the buyer, refusing a hash that pays someone else', async () => {
    const bsc = f.nodes.bsc
    const usdt = bsc.tokens.USDT as `0x${string}`
    const o = await f.placeOrder({ chain: 'bsc', token: 'USDT' })
    const due = BigInt(o.body.amount_units as string)
    await transfer(bsc.anvil, usdt, f.buyer, o.address, due)
    await f.finalise('bsc')
    expect(await f.status(o.id)).toMatchObject({ status: 'paid' })

    const start = (address: string) =>
      admin('secure_create_refund', {
        p_order_id: o.id,
        p_token: 'USDT',
        p_full: true,
        p_reason: 'Wrong product',
        p_disable_keys: true,
        p_request_key: randomUUID(),
        p_address: address,
      })
    // A TRON address for a refund on BNB Smart Chain: refused with the EVM family's words, nothing made.
    const tron = await start(testAddresses(1, 'a TRON wallet')[0] as string)
    expect(tron.body).toMatchObject({ success: false, error: refundMessages.badEvmAddress })
    expect(await f.rows(sql`select id from refunds`)).toEqual([])

    // The buyer's address as typed in lower case: kept in its checksum form.
    const started = await start(f.buyer.toLowerCase())
    expect(started.body).toMatchObject({
      success: true,
      refund: {
        token: 'USDT',
        amount: o.total.toFixed(2),
        status: 'ready',
        address: f.buyer,
        // The operator's QR: an EIP-681 transfer of the token, on the chain, for the exact amount.
        payment_uri: `ethereum:${usdt}@56/transfer?address=${f.buyer}&uint256=${due}`,
      },
    })
    const id = (started.body.refund as { id: number }).id
    expect(await f.rows(sql`select chain, token, amount_units::text as units from refunds`)).toEqual([
      { chain: 'bsc', token: 'USDT', units: due.toString() },
    ])

    // The operator's wallet pays: first the wrong address, then the buyer (after the refund was ready).
    const operator = f.other
    await transfer(bsc.anvil, usdt, f.buyer, operator, 2n * due)
    await bsc.anvil.client.increaseTime({ seconds: 2 })
    const stranger = getAddress(`0x${'12'.repeat(20)}`)
    const wrong = await transfer(bsc.anvil, usdt, operator, stranger, due)
    await bsc.anvil.client.mine({ blocks: DEPTH })
    const refused = await admin('secure_verify_refund', { p_refund_id: id, p_transaction_hash: wrong })
    expect(refused.body).toMatchObject({
      success: false,
      error: fillMessage(refundMessages.txWrongRecipient, { token: 'USDT', to: stranger, address: f.buyer }),
    })
    expect(await watchRefundsOnce(f.t.database.db, f.t.app.services.chains)).toEqual([])

    const paid = await transfer(bsc.anvil, usdt, operator, f.buyer, due)
    await bsc.anvil.client.mine({ blocks: DEPTH })
    const sent = await watchRefundsOnce(f.t.database.db, f.t.app.services.chains)
    expect(sent.map((r) => [r.id, r.status, r.txId, r.txAmountUnits])).toEqual([[id, 'sent', paid, due]])
    expect(await f.status(o.id)).toMatchObject({ status: 'refunded' })
    // The buyer's e-mail names the network and the amount at its decimals.
    const [mail] = await f.rows(sql`select text_body from mail_outbox where kind = ${`refund_sent:${id}`}`)
    expect(mail?.text_body).toContain(
      `${o.total.toFixed(2)} USDT was sent to ${f.buyer} on the BNB Smart Chain network.`,
    )
    const listed = await admin('secure_fetch_refunds', { p_order_id: o.id })
    expect(listed.body.refunds).toMatchObject([
      {
        id,
        network: 'BNB Smart Chain',
        status: 'sent',
        payment_uri: null,
        amount: o.total.toFixed(2),
        tx_amount: o.total.toFixed(2),
        verified_by: 'watch',
      },
    ])
  }, 180_000)
})
