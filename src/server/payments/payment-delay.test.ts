import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testAddresses } from '../../../tests/support/test-addresses'
import { createTestApp, rpc, type TestApp } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { waitFor } from '../../../tests/support/wait'
import { seedOnce } from '../db/seed'
import { loadSettings, saveSettings } from '../settings/settings'
import { addWalletAddresses } from '../wallets/wallets.repo'

// When the follower is behind the chain (the block it last read is older than the notice
// threshold), the buyer is told, and with the operator's setting on new checkouts are refused.

const unavailable = 'Payment system is temporarily unavailable. Please try again later.'

describe.each(engines)('payment detection delay on %s', (engine) => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(engine, { PAYMENT_DELAY_NOTICE_MINUTES: '5' })
    await seedOnce(t.database.db)
    await addWalletAddresses(t.database.db, testAddresses(5, `${engine}-delay`))
  })
  afterAll(() => t.close())

  /** The block the follower read last was made `minutes` ago. */
  const lastBlockAgo = (minutes: number) =>
    t.database.db.execute(sql`
      insert into follower_state (id, checkpoint_block, checkpoint_time) values (1, 100, ${Date.now() - minutes * 60_000})
      on conflict (id) do update set checkpoint_time = excluded.checkpoint_time`)

  const order = async () => {
    const products = (await rpc(t.app, 'fetch_products')).body.products as {
      id: number
      price: number
      is_free: boolean
    }[]
    const product = products.find((p) => !p.is_free && p.price > 0) as { id: number; price: number }
    return rpc(t.app, 'secure_create_order', {
      p_email: 'buyer@example.com',
      p_items: [{ product: { id: product.id }, quantity: 1 }],
      p_total: product.price,
    })
  }
  const delayedFor = async (id: string, secret: string) =>
    (await rpc(t.app, 'secure_get_order_status', { p_order_id: id, p_order_secret: secret })).body
      .detection_delayed

  it('tells the buyer while detection lags; with the setting on, takes no new order meanwhile', async () => {
    await lastBlockAgo(1)
    const placed = (await order()).body
    expect(placed.success).toBe(true)
    const id = placed.order_id as string
    const secret = placed.order_secret as string
    expect(await delayedFor(id, secret)).toBe(false)

    await lastBlockAgo(6)
    await waitFor('the notice', async () => (await delayedFor(id, secret)) === true, 5000)
    // Off by default: checkouts still go through, with the notice.
    expect((await order()).body.success).toBe(true)

    await saveSettings(t.database.db, {
      ...(await loadSettings(t.database.db)),
      refuseCheckoutsWhileDelayed: true,
    })
    // Asking for an address changes nothing: it is how the wait looks without placing orders.
    const addressAnswer = async () => (await rpc(t.app, 'secure_get_wallet_address')).body
    await waitFor('checkouts to be refused', async () => (await addressAnswer()).error === unavailable, 5000)
    const before = (await t.database.db.execute(sql`select count(*)::int as n from orders`)) as unknown as {
      rows: { n: number }[]
    }
    expect((await order()).body).toEqual({ success: false, error: unavailable })
    const after = (await t.database.db.execute(sql`select count(*)::int as n from orders`)) as unknown as {
      rows: { n: number }[]
    }
    expect(after.rows[0]?.n).toBe(before.rows[0]?.n)

    // Caught up again: orders are taken and the notice is gone.
    await lastBlockAgo(1)
    await waitFor('checkouts to be taken', async () => (await addressAnswer()).success === true, 5000)
    expect((await order()).body.success).toBe(true)
    expect(await delayedFor(id, secret)).toBe(false)
  })
})
