import { sql } from 'drizzle-orm'
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEvmFixture, type EvmFixture } from '../../../../tests/support/evm/evm-fixture'
import { transfer } from '../../../../tests/support/evm/tokens'
import { testAddresses } from '../../../../tests/support/test-addresses'
import { adminSession, rpc } from '../../../../tests/support/test-app'
import { engines } from '../../../../tests/support/test-db'

// Reconciling an EVM chain as the operator does (secure_reconcile with p_chain), against real Anvil
// nodes (BNB Smart Chain with 18-decimal USDT and USDC, Base with 6-decimal USDC) and a real
// database: the chain side (Transfer logs of the accepted tokens over the period's blocks) ties
// with the ledger the follower wrote, a counterfeit token never counts, and a transfer the ledger
// lacks makes it not tie.

type Row = {
  network: string
  address: string
  token: string
  decimals: number
  chain: string | null
  chain_count: number | null
  ledger: string
  ledger_count: number
  credited: string
  unmatched: string
  ties: boolean
}

describe.each(engines)('reconciliation of EVM chains (%s)', (engine) => {
  let f: EvmFixture
  let session: Record<string, string>
  const admin = async (payload: object) => rpc(f.t.app, 'secure_reconcile', payload, session)
  // A period around now: the Anvil blocks are stamped with the wall clock.
  const period = () => ({
    p_from: new Date(Date.now() - 3_600_000).toISOString(),
    p_to: new Date(Date.now() + 3_600_000).toISOString(),
  })
  const rowsOf = (body: Record<string, unknown>, address: string) =>
    (body.rows as Row[]).filter((r) => r.address === address)

  let bscOrder: { id: string; address: Address; total: number }
  let baseOrder: { id: string; address: Address; total: number }
  const units = (dollars: number, decimals: number) =>
    (BigInt(Math.round(dollars * 100)) * 10n ** BigInt(decimals)) / 100n

  beforeAll(async () => {
    f = await createEvmFixture(engine, {
      env: {
        ADMIN_USERNAME: 'owner',
        ADMIN_PASSWORD: 'correct horse battery staple',
        PUBLIC_URL: 'http://shop.test',
      },
    })
    session = await adminSession(f.t)
    // An 18-decimal USDT payment on BNB Smart Chain (plus a counterfeit USDT to the same address) and
    // a 6-decimal USDC payment on Base, both final and recorded by the followers.
    bscOrder = await f.placeOrder({ chain: 'bsc', token: 'USDT' })
    baseOrder = await f.placeOrder({ chain: 'base', token: 'USDC' })
    const bsc = f.nodes.bsc
    await transfer(
      bsc.anvil,
      bsc.tokens.USDT as Address,
      f.buyer,
      bscOrder.address,
      units(bscOrder.total, 18),
    )
    await transfer(bsc.anvil, bsc.fake, f.buyer, bscOrder.address, units(1000, 18))
    await transfer(
      f.nodes.base.anvil,
      f.nodes.base.tokens.USDC,
      f.buyer,
      baseOrder.address,
      units(baseOrder.total, 6),
    )
    for (const [chain, order] of [
      ['bsc', bscOrder],
      ['base', baseOrder],
    ] as const) {
      // A follower pass can fail on a loaded machine (a timeout): it is run again until the order is paid.
      const passes: unknown[] = []
      for (let i = 0; i < 10 && (await f.status(order.id)).status !== 'paid'; i++) {
        passes.push(...(await f.finalise(chain)).filter((r) => r.error).map((r) => r.error))
      }
      if ((await f.status(order.id)).status === 'paid') continue
      // Not paid: what the shop recorded, for the failure's message.
      const why = {
        chain,
        passes,
        order: await f.rows(
          sql`select chain, token, wallet_address, created_at from orders where id = ${order.id}`,
        ),
        payments: await f.rows(
          sql`select chain, token, to_address, status, reason, block_timestamp from payments`,
        ),
        follower: await f.rows(sql`select * from follower_state`),
        head: String(await f.nodes[chain].anvil.client.getBlockNumber()),
      }
      throw new Error(`order on ${chain} not paid: ${JSON.stringify(why)}`)
    }
  }, 180_000)
  afterAll(async () => {
    await f?.close()
  })

  it('an 18-decimal payment on BNB Smart Chain ties: chain side equals the ledger, the counterfeit not counted', async () => {
    const ledger = await admin({ ...period(), p_chain: 'bsc' })
    expect(ledger.status).toBe(200)
    expect(ledger.body).toMatchObject({
      success: true,
      network: 'bsc',
      enabled_chains: ['tron', 'bsc', 'base'],
      ties: true,
      order_mismatches: [],
    })
    const due = units(bscOrder.total, 18)
    const whole = `${due / 10n ** 18n}.${(due % 10n ** 18n).toString().padStart(18, '0')}`
    // Only this chain's rows, each naming it, amounts with the token's 18 decimals.
    expect((ledger.body.rows as Row[]).every((r) => r.network === 'bsc')).toBe(true)
    expect(rowsOf(ledger.body, baseOrder.address)).toEqual([])
    expect(rowsOf(ledger.body, bscOrder.address)).toEqual([
      {
        network: 'bsc',
        address: bscOrder.address,
        token: 'USDT',
        decimals: 18,
        chain: null,
        chain_count: null,
        ledger: whole,
        ledger_count: 1,
        credited: whole,
        unmatched: '0.000000000000000000',
        ties: true,
      },
    ])

    const checked = await admin({ ...period(), p_chain: 'bsc', p_chain_address: bscOrder.address })
    expect(checked.body).toMatchObject({ success: true, ties: true, chain_errors: [] })
    expect(
      rowsOf(checked.body, bscOrder.address).map((r) => [r.token, r.chain, r.chain_count, r.ties]),
    ).toEqual([
      ['USDC', '0.000000000000000000', 0, true],
      ['USDT', whole, 1, true],
    ])
  })

  it('a 6-decimal payment on Base ties with 6 decimals', async () => {
    const checked = await admin({ ...period(), p_chain: 'base', p_chain_address: baseOrder.address })
    expect(checked.body).toMatchObject({ success: true, network: 'base', ties: true, order_mismatches: [] })
    const due = units(baseOrder.total, 6)
    const whole = `${due / 1_000_000n}.${(due % 1_000_000n).toString().padStart(6, '0')}`
    expect(rowsOf(checked.body, baseOrder.address)).toEqual([
      expect.objectContaining({
        network: 'base',
        token: 'USDC',
        decimals: 6,
        chain: whole,
        chain_count: 1,
        ledger: whole,
        credited: whole,
        ties: true,
      }),
    ])
  })

  it("an EVM order's recorded amount is checked against its credited rows for the chain's period", async () => {
    await f.rows(
      sql`update orders set amount_received_units = amount_received_units + 1 where id = ${bscOrder.id}`,
    )
    try {
      const bsc = await admin({ ...period(), p_chain: 'bsc' })
      expect(bsc.body.ties).toBe(false)
      const micros = BigInt(Math.round(bscOrder.total * 100)) * 10_000n
      const dollars = (m: bigint) => `${m / 1_000_000n}.${(m % 1_000_000n).toString().padStart(6, '0')}`
      expect(bsc.body.order_mismatches).toEqual([
        { order_id: bscOrder.id, token: 'USDT', recorded: dollars(micros + 1n), credited: dollars(micros) },
      ])
      // Base's period holds no transfer to that order.
      expect((await admin({ ...period(), p_chain: 'base' })).body).toMatchObject({ order_mismatches: [] })
    } finally {
      await f.rows(
        sql`update orders set amount_received_units = amount_received_units - 1 where id = ${bscOrder.id}`,
      )
    }
    expect((await admin({ ...period(), p_chain: 'bsc' })).body).toMatchObject({ ties: true })
  })

  it('a transfer the ledger lacks does not tie: one the follower never saw, and a lost ledger row', async () => {
    // An address outside the pool: the follower never watched it; the chain has the transfer.
    const stranger = f.other
    const bsc = f.nodes.bsc
    await transfer(bsc.anvil, bsc.tokens.USDC, f.buyer, stranger, units(7, 18))
    await f.finalise('bsc')
    const unseen = await admin({ ...period(), p_chain: 'bsc', p_chain_address: stranger })
    expect(unseen.body).toMatchObject({ success: true, ties: false })
    expect(rowsOf(unseen.body, stranger).find((r) => r.token === 'USDC')).toMatchObject({
      chain: '7.000000000000000000',
      chain_count: 1,
      ledger: '0.000000000000000000',
      ledger_count: 0,
      ties: false,
    })

    // A ledger row lost: the chain still has the transfer.
    const [payment] = await f.rows(
      sql`select * from payments where order_id = ${bscOrder.id} and chain = 'bsc'`,
    )
    expect(payment).toBeDefined()
    await f.rows(sql`delete from payments where id = ${payment?.id}`)
    const lost = await admin({ ...period(), p_chain: 'bsc', p_chain_address: bscOrder.address })
    expect(lost.body).toMatchObject({ success: true, ties: false })
    expect(rowsOf(lost.body, bscOrder.address).find((r) => r.token === 'USDT')).toMatchObject({
      chain_count: 1,
      ledger_count: 0,
      ties: false,
    })
  })

  it('a period too long for one check is answered "narrow the period", without a request', async () => {
    const adapter = f.t.app.services.chains.require('bsc')
    const before = adapter.providers.requestBudget().usedToday
    const wide = await admin({ p_chain: 'bsc', p_chain_address: baseOrder.address })
    expect(wide.status).toBe(200)
    expect(wide.body.ties).toBe(false)
    expect(wide.body.chain_errors).toEqual([
      { address: baseOrder.address, message: expect.stringContaining('narrow the period'), narrow: true },
    ])
    expect(adapter.providers.requestBudget().usedToday).toBe(before)
  })

  it('an unknown or disabled chain, or an address of another family, is a 400 naming the field', async () => {
    const tron = testAddresses(1, 'reconcile-evm')[0] as string
    for (const [payload, error] of [
      [{ p_chain: 'solana' }, 'p_chain:'],
      [{ p_chain: 'polygon' }, 'p_chain: the shop does not take payments on Polygon PoS'],
      [{ p_chain: 'bsc', p_chain_address: tron }, 'p_chain_address: must be an EVM address'],
      [
        { p_chain: 'bsc', p_chain_address: bscOrder.address.replace('0x', '0X') },
        'p_chain_address: must be an EVM address',
      ],
      // A mixed-case address whose checksum does not match: a typo.
      [
        {
          p_chain: 'bsc',
          p_chain_address: `0x${bscOrder.address.slice(2, 41)}${bscOrder.address.at(-1) === 'a' ? 'B' : 'a'}`,
        },
        'p_chain_address: must be a BNB Smart Chain address',
      ],
      [{ p_chain_address: bscOrder.address }, 'p_chain_address: must be a TRON address'],
    ] as const) {
      const res = await admin({ ...period(), ...payload })
      expect(res.status, JSON.stringify(payload)).toBe(400)
      expect(res.body.success).toBe(false)
      expect(String(res.body.error)).toContain(error)
    }
    // Without p_chain: TRON, as before (no TRON payment in this shop).
    expect((await admin(period())).body).toMatchObject({ success: true, network: 'tron', rows: [] })
  })
})
