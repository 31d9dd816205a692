import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEvmFixture, type EvmFixture } from '../../../../tests/support/evm/evm-fixture'
import { transfer } from '../../../../tests/support/evm/tokens'
import { adminSession, rpc } from '../../../../tests/support/test-app'
import { engines } from '../../../../tests/support/test-db'

// A shortfall is said in the order's own token, to its last base unit, wherever it is shown: an
// 18-decimal USDT payment on BNB Smart Chain one base unit short, with no tolerance, is
// 0.000000000000000001 USDT short on the status call and on the admin's order (never "$0.01",
// which would have the buyer pay a cent too much).

describe.each(engines)('a shortfall in the token’s units (%s)', (engine) => {
  let f: EvmFixture
  beforeAll(async () => {
    f = await createEvmFixture(engine, {
      env: {
        PAYMENT_TOLERANCE: '0',
        PAYMENT_TOLERANCE_PERCENT: '0',
        ADMIN_PASSWORD: 'shortfall test password',
      },
    })
  }, 180_000)
  afterAll(async () => {
    await f?.close()
  })

  const units18 = (dollars: number) => BigInt(Math.round(dollars * 100)) * 10n ** 16n

  it('one base unit short of an 18-decimal total says 0.000000000000000001 USDT', async () => {
    const o = await f.placeOrder({ chain: 'bsc', token: 'USDT' })
    const due = units18(o.total)
    await transfer(f.nodes.bsc.anvil, f.nodes.bsc.tokens.USDT as Address, f.buyer, o.address, due - 1n)
    await f.finalise('bsc')
    // 19.99 less one base unit: 19.989999999999999999.
    const received = `${(o.total - 0.01).toFixed(2)}9999999999999999`

    const shortfall = { token: 'USDT', received, missing: '0.000000000000000001', missingUnits: '1' }
    expect(await f.status(o.id)).toMatchObject({ status: 'pending', shortfall })
    // The page's QR code and wallet link ask for that one base unit, not the order's total again.
    const usdt = f.nodes.bsc.tokens.USDT as Address
    expect(await f.status(o.id)).toMatchObject({
      shortfall: { paymentUri: `ethereum:${usdt}@56/transfer?address=${o.address}&uint256=1` },
    })

    const admin = await adminSession(f.t)
    const detail = await rpc(f.t.app, 'secure_fetch_order', { p_order_id: o.id }, admin)
    expect(detail.status).toBe(200)
    expect(detail.body.order).toMatchObject({ status: 'pending', underpaid: true, shortfall })

    // Topped up by that one unit, the order is paid and nothing is short any more.
    await transfer(f.nodes.bsc.anvil, f.nodes.bsc.tokens.USDT as Address, f.buyer, o.address, 1n)
    await f.finalise('bsc')
    expect(await f.status(o.id)).toMatchObject({ status: 'paid', shortfall: null })
    const after = await rpc(f.t.app, 'secure_fetch_order', { p_order_id: o.id }, admin)
    expect(after.body.order).toMatchObject({ status: 'paid', shortfall: null })
  })
})
