import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPaymentFixture, type PaymentFixture } from '../../../tests/support/payment-fixture'
import { testAddresses } from '../../../tests/support/test-addresses'
import { adminSession, rpc } from '../../../tests/support/test-app'
import { createTestDatabase, engines, type TestDatabase } from '../../../tests/support/test-db'
import { confirmMessages } from '../../shared/order-status'
import { stableUnitsToMicros } from '../chains/chain'
import { readFollowerStatus } from '../chains/chain-follower'
import { createChainRegistry } from '../chains/chain-registry'
import { decimalsOf, TOKEN_TABLE } from '../chains/token-table'
import { followerRowId, paymentSightings, payments } from '../db/schema'
import {
  addWalletAddresses,
  allPoolAddresses,
  findFreeAddress,
  leaseAddresses,
} from '../wallets/wallets.repo'

// Several chains at rest (decision 037, migration 0028): every ledger, sighting and follower row
// names its chain, checked; the ledger's key includes it; the pool leases by family.

const EVM = ['0x1111111111111111111111111111111111111111', '0x2222222222222222222222222222222222222222']

describe.each(engines)('chains at rest on %s', (engine) => {
  let database: TestDatabase
  const rows = async (query: ReturnType<typeof sql>) =>
    ((await database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows
  const insertPayment = (chain: string, txId: string, token = 'USDT') =>
    database.db.execute(sql`
      insert into payments (chain, tx_id, source, event_index, token, amount_units, from_address, to_address, block_timestamp)
      values (${chain}, ${txId}, 'log', 0, ${token}, 5, 'a', 'b', 1)`)

  beforeAll(async () => {
    database = await createTestDatabase(engine)
    await database.db.execute(sql`delete from wallet_addresses`)
  })
  afterAll(() => database.close())

  it('a transfer is unique per chain: the same transaction key on two chains is two rows, once each', async () => {
    const txId = 'ab'.repeat(32)
    await insertPayment('tron', txId)
    await insertPayment('bsc', txId)
    await expect(insertPayment('bsc', txId)).rejects.toThrow()
    const found = await rows(sql`select chain from payments where tx_id = ${txId} order by chain`)
    expect(found.map((r) => r.chain)).toEqual(['bsc', 'tron'])
  })

  it('keeps an 18-decimal amount exact, far past int64, in the ledger and in sightings', async () => {
    // 25.01 USDT on BNB Smart Chain (18 decimals), and a uint256 near its top.
    const amounts = [25_010_000_000_000_000_000n, 2n ** 255n + 7n]
    for (const [i, amountUnits] of amounts.entries()) {
      const txId = `0x${String(i).repeat(64)}`
      await database.db.insert(payments).values({
        chain: 'bsc',
        txId,
        source: 'log',
        eventIndex: 3,
        token: 'USDT',
        amountUnits,
        fromAddress: EVM[0] as string,
        toAddress: EVM[1] as string,
        blockTimestamp: 1,
      })
      const [row] = await database.db.select().from(payments).where(eq(payments.txId, txId))
      expect(row?.amountUnits).toBe(amountUnits)
      const [sum] = await rows(
        sql`select sum(amount_units)::text as units from payments where tx_id = ${txId}`,
      )
      expect(sum?.units).toBe(amountUnits.toString())
    }
    const orderId = randomUUID()
    await database.db.insert(paymentSightings).values({
      chain: 'bsc',
      orderId,
      txId: `0x${'9'.repeat(64)}`,
      source: 'log',
      token: 'USDC',
      amountUnits: amounts[0] as bigint,
      fromAddress: EVM[0] as string,
      toAddress: EVM[1] as string,
      blockNumber: 5,
      blockTimestamp: 1,
    })
    const [seen] = await database.db
      .select()
      .from(paymentSightings)
      .where(eq(paymentSightings.orderId, orderId))
    expect(seen?.amountUnits).toBe(amounts[0])
  })

  it('refuses a chain, token or family it does not know, and keeps TRON the default', async () => {
    await expect(insertPayment('cosmos', 'cd'.repeat(32))).rejects.toThrow()
    await expect(insertPayment('tron', 'ef'.repeat(32), 'DAI')).rejects.toThrow()
    await insertPayment('base', '12'.repeat(32), 'USDC')
    await expect(
      database.db.execute(sql`insert into wallet_addresses (address, family) values ('x', 'btc')`),
    ).rejects.toThrow()
    await database.db.execute(sql`
      insert into payments (tx_id, source, event_index, token, amount_units, from_address, to_address, block_timestamp)
      values (${'34'.repeat(32)}, 'native', 0, 'TRX', 7, 'a', 'b', 1)`)
    const [row] = await rows(sql`select chain from payments where tx_id = ${'34'.repeat(32)}`)
    expect(row?.chain).toBe('tron')
    const [order] = await rows(sql`select column_default from information_schema.columns
      where table_name = 'orders' and column_name = 'chain'`)
    expect(String(order?.column_default)).toContain('tron')
  })

  it('one follower row per chain, each with its own checkpoint', async () => {
    await database.db.execute(sql`delete from follower_state`)
    await database.db.execute(sql`
      insert into follower_state (id, chain, checkpoint_block, checkpoint_block_id, checkpoint_time, solid_head)
      values (${followerRowId('tron')}, 'tron', 100, 'aa', 1000, 104),
             (${followerRowId('bsc')}, 'bsc', 7000, '0xbb', 2000, 7002)`)
    expect(await readFollowerStatus(database.db, 'tron')).toMatchObject({
      checkpointBlock: 100,
      lagBlocks: 4,
    })
    expect(await readFollowerStatus(database.db, 'bsc')).toMatchObject({
      checkpointBlock: 7000,
      lagBlocks: 2,
    })
    expect(await readFollowerStatus(database.db, 'base')).toMatchObject({ checkpointBlock: null })
    await expect(
      database.db.execute(
        sql`insert into follower_state (id, chain, checkpoint_block, checkpoint_time) values (9, 'bsc', 1, 1)`,
      ),
    ).rejects.toThrow()
  })

  it('an order leases an address of its family only; the follower watches its family', async () => {
    const tron = testAddresses(3, `${engine}-family`)
    await addWalletAddresses(database.db, tron)
    for (const address of EVM)
      await database.db.execute(
        sql`insert into wallet_addresses (address, family) values (${address}, 'evm')`,
      )
    expect(new Set(await allPoolAddresses(database.db, 'evm'))).toEqual(new Set(EVM))
    expect(new Set(await allPoolAddresses(database.db, 'tron'))).toEqual(new Set(tron))
    expect(EVM).toContain(await findFreeAddress(database.db, 'evm'))
    expect(tron).toContain(await findFreeAddress(database.db, 'tron'))

    const evmOrders = [randomUUID(), randomUUID(), randomUUID()]
    const leased = await database.db.transaction((tx) =>
      leaseAddresses(
        tx,
        evmOrders.map((orderId) => ({ orderId })),
        new Date(),
        'evm',
      ),
    )
    // Two EVM addresses for three orders: the third gets none, never a TRON address.
    expect(new Set(leased.values())).toEqual(new Set(EVM))
    expect(leased.size).toBe(2)
    const tronOrder = randomUUID()
    const tronLease = await database.db.transaction((tx) =>
      leaseAddresses(tx, [{ orderId: tronOrder }], new Date(), 'tron'),
    )
    expect(tron).toContain(tronLease.get(tronOrder))
    // A TRON order asking for an EVM address by name does not get it.
    const asking = randomUUID()
    await database.db.execute(sql`update wallet_addresses set leased_order_id = null where family = 'evm'`)
    const refused = await database.db.transaction((tx) =>
      leaseAddresses(tx, [{ orderId: asking, preferred: EVM[0] }], new Date(), 'tron'),
    )
    expect(tron).toContain(refused.get(asking))
  })
})

describe.each(engines)('calls that name a chain on %s', (engine) => {
  let f: PaymentFixture
  beforeAll(async () => {
    f = await createPaymentFixture(engine, {
      env: {
        ADMIN_USERNAME: 'admin',
        ADMIN_PASSWORD: 'chains-admin-password',
        PUBLIC_URL: 'http://shop.test',
      },
    })
  })
  afterAll(() => f.close())
  const confirm = (orderId: string, hash: string, chain?: string) =>
    rpc(
      f.t.app,
      'secure_confirm_transaction',
      {
        p_order_id: orderId,
        p_transaction_hash: hash,
        p_order_secret: f.secretOf(orderId),
        ...(chain ? { p_chain: chain } : {}),
      },
      { 'x-forwarded-for': `${orderId}-${chain}` },
    )

  it("the buyer's hash on a chain the shop does not take is refused; on TRON, named or not, it pays", async () => {
    const o = await f.placeOrder()
    const sent = await f.pay({ to: o.address, amount: o.total.toFixed(2) })
    expect((await confirm(o.id, sent.txId, 'bsc')).body).toEqual({
      success: false,
      error: confirmMessages.notForOrder,
    })
    expect((await confirm(o.id, sent.txId, 'cosmos')).status).toBe(400)
    expect((await confirm(o.id, sent.txId, 'tron')).body).toMatchObject({ success: true, hash: sent.txId })
    expect((await confirm(o.id, `0x${sent.txId.toUpperCase()}`)).body).toMatchObject({
      success: true,
      hash: sent.txId,
    })
    const [row] = await f.rows(sql`select chain from payments where tx_id = ${sent.txId}`)
    expect(row?.chain).toBe('tron')
  })

  it("the chain page answers per chain: TRON's by default, a clear refusal for one not enabled", async () => {
    const session = await adminSession(f.t)
    const tron = await rpc(f.t.app, 'secure_fetch_providers', {}, session)
    expect(tron.body).toMatchObject({ success: true, chain: 'tron', enabled_chains: ['tron'] })
    const providers = tron.body.providers as unknown[]
    expect(providers.length).toBeGreaterThan(0)
    const named = await rpc(f.t.app, 'secure_fetch_providers', { p_chain: 'tron' }, session)
    expect(named.body.providers).toHaveLength(providers.length)
    const bsc = await rpc(f.t.app, 'secure_fetch_providers', { p_chain: 'bsc' }, session)
    // One answer for a chain the shop does not take, on every call that names one (reconcile's too).
    const notTaken = 'Invalid request: p_chain: the shop does not take payments on BNB Smart Chain'
    expect(bsc.status).toBe(400)
    expect(bsc.body.error).toBe(notTaken)
    const reconciled = await rpc(f.t.app, 'secure_reconcile', { p_chain: 'bsc' }, session)
    expect([reconciled.status, reconciled.body.error]).toEqual([400, notTaken])
    const test = await rpc(f.t.app, 'secure_test_provider', { p_chain: 'base', p_name: 'x' }, session)
    expect(test.status).toBe(400)
    expect(test.body.error).toBe('Invalid request: p_chain: the shop does not take payments on Base')
    expect((await rpc(f.t.app, 'secure_fetch_providers', { p_chain: 'mars' }, session)).status).toBe(400)
  })
})

describe('the chain table and registry', () => {
  it('reads decimals from the token table, and converts stablecoins to micro-dollars exactly', () => {
    expect(decimalsOf('tron', 'USDT')).toBe(6)
    expect(TOKEN_TABLE.tron.find((t) => t.symbol === 'TRX')?.kind).toBe('native')
    expect(() => decimalsOf('tron', 'USDC')).toThrow(TypeError)
    expect(stableUnitsToMicros(12_500_000n, 6)).toBe(12_500_000n)
    // 12.5 of an 18-decimal token, and a dust amount below a micro-dollar.
    expect(stableUnitsToMicros(12_500_000_000_000_000_000n, 18)).toBe(12_500_000n)
    expect(stableUnitsToMicros(999_999_999_999n, 18)).toBe(0n)
    expect(stableUnitsToMicros(125n, 2)).toBe(1_250_000n)
  })

  it('holds each enabled chain once, TRON first, by family', () => {
    const fake = (chain: 'tron' | 'bsc' | 'base', family: 'tron' | 'evm') =>
      ({ chain, family }) as unknown as Parameters<typeof createChainRegistry>[0][number]
    const registry = createChainRegistry([fake('bsc', 'evm'), fake('tron', 'tron'), fake('base', 'evm')])
    expect(registry.enabled().map((c) => c.chain)).toEqual(['tron', 'bsc', 'base'])
    expect(registry.ofFamily('evm').map((c) => c.chain)).toEqual(['bsc', 'base'])
    expect(registry.get('polygon')).toBeUndefined()
    expect(() => registry.require('polygon')).toThrow(TypeError)
    expect(() => createChainRegistry([fake('bsc', 'evm'), fake('bsc', 'evm')])).toThrow(TypeError)
  })
})
