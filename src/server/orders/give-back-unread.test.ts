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

// A returning browser's new checkout gives its earlier order's address back only when nothing was
// seen for it (decision 041). A transfer in a head block the sighting watcher has not read yet was
// not seen: when the watcher's last look is older than a block time, the checkout has it look once
// more before the address is handed over. Here the watcher runs only when asked (no timer), so the
// checkout's own look is the only one that can see the transfer.

const BLOCK_MS = 200
const [WALLET] = testAddresses(1, 'give-back unread sender') as [string]

describe.each(engines)('a new checkout and a transfer the watcher has not read yet, on %s', (engine) => {
  let f: PaymentFixture
  let productId = 0
  let price = 0

  beforeAll(async () => {
    f = await createPaymentFixture(engine, {
      blockIntervalMs: BLOCK_MS,
      env: { CHAIN_BLOCK_MS: String(BLOCK_MS) },
    })
    const product = f.products[0] as { id: number; price: number }
    productId = product.id
    price = product.price
  }, 120_000)
  afterAll(() => f.close())

  /** One browser: the checkout cookie the server sets, sent back on each call (over app.inject). */
  function browser() {
    let cookie = ''
    return async function checkout() {
      const res = await f.t.app.inject({
        method: 'POST',
        url: '/rpc/secure_create_order',
        payload: {
          p_email: 'buyer@example.com',
          p_items: [{ product: { id: productId }, quantity: 1 }],
          p_total: price,
          p_idempotency_key: randomUUID(),
        },
        headers: cookie ? { cookie } : {},
      })
      const set = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('stablecart_checkout='))
      if (set) cookie = set.split(';')[0] as string
      const body = res.json() as Record<string, unknown>
      expect(body.success, JSON.stringify(body)).toBe(true)
      return { id: body.order_id as string, address: body.wallet_address as string }
    }
  }
  const statusOf = async (id: string) => (await f.order(id)).status as string

  it('keeps the earlier order and its address when its transfer is in a block the watcher had not read', async () => {
    const watcher = f.t.app.services.sightings
    if (!watcher) throw new Error('the fixture has no sighting watcher')
    const checkout = browser()
    const first = await checkout()
    // The watcher has looked (at the head) since the order was placed; then the buyer pays.
    await watcher.runOnce()
    const looked = watcher.status().lastLookAt as number
    expect(looked).not.toBeNull()
    const sent = await f.send({ to: first.address, amount: price.toFixed(2), from: WALLET })
    f.chain.mine(1)
    expect(f.chain.heights().head).toBeGreaterThanOrEqual(sent.block)
    // More than a block time passes with no look: the shop has not seen the transfer.
    await waitFor('a block time without a look', () => Date.now() - looked > BLOCK_MS * 2, 10_000)
    expect(await f.rows(sql`select id from payment_sightings where order_id = ${first.id}`)).toEqual([])

    const second = await checkout()
    expect(await statusOf(first.id)).toBe('pending')
    expect(second.address).not.toBe(first.address)
    const seen = await f.rows(sql`select tx_id, status from payment_sightings where order_id = ${first.id}`)
    expect(seen).toEqual([{ tx_id: sent.txId, status: 'seen' }])
    // The earlier order is paid by its transfer once final; the new one keeps its own address.
    await f.settle(sent.block)
    await waitFor('the earlier order paid', async () => (await statusOf(first.id)) === 'paid', 30_000)
    expect(await statusOf(second.id)).toBe('pending')
  }, 120_000)

  it('still gives the address back when nothing was sent', async () => {
    const watcher = f.t.app.services.sightings
    if (!watcher) throw new Error('the fixture has no sighting watcher')
    const checkout = browser()
    const first = await checkout()
    const second = await checkout()
    expect(second.address).toBe(first.address)
    expect(await statusOf(first.id)).toBe('cancelled')
  }, 60_000)
})
