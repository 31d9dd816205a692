import { createHmac, timingSafeEqual } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEvmFixture, type EvmFixture } from '../../../tests/support/evm/evm-fixture'
import { transfer } from '../../../tests/support/evm/tokens'
import { startReceiver } from '../../../tests/support/http-receiver'
import { adminSession, rpc } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { waitFor } from '../../../tests/support/wait'
import { createSightingWatcher, type SightingWatcher } from '../chains/sighting-watcher'
import { createWebhookWorker, type WebhookWorker } from '../webhooks/delivery-worker'
import { invoiceDataSchema } from './greenfield-schemas'

// A Greenfield invoice paid on an EVM chain (BNB Smart Chain on a real Anvil node, 18-decimal
// USDT): New, then Processing once the sighting watcher sees the transfer at the head, then Settled
// once the follower reads it final; the Greenfield webhooks arrive in that order, each once,
// signed as BTCPay signs (checked as BTCPay's clients check it).

const PASSWORD = 'invoice-evm-admin-password'

function btcpayClientVerifies(secret: string, rawBody: string, header: string | undefined): boolean {
  if (!header?.startsWith('sha256=')) return false
  const expected = Buffer.from(createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex'))
  const given = Buffer.from(header.slice('sha256='.length))
  return expected.length === given.length && timingSafeEqual(expected, given)
}

describe.each(engines)('a Greenfield invoice paid on Anvil (%s)', (engine) => {
  let f: EvmFixture
  let key: string
  let storeId: string
  let watcher: SightingWatcher
  let worker: WebhookWorker
  let receiver: Awaited<ReturnType<typeof startReceiver>>

  const api = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const response = await f.t.app.inject({
      method,
      url,
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      headers: {
        authorization: `token ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
    })
    return { status: response.statusCode, body: response.json() }
  }
  const invoice = async (id: string) =>
    invoiceDataSchema.parse((await api('GET', `/api/v1/stores/${storeId}/invoices/${id}`)).body)

  beforeAll(async () => {
    receiver = await startReceiver()
    f = await createEvmFixture(engine, {
      env: { ADMIN_PASSWORD: PASSWORD, WEBHOOK_ALLOW_PRIVATE: 'true', PUBLIC_URL: 'https://shop.test' },
    })
    const admin = await adminSession(f.t)
    const made = await rpc(
      f.t.app,
      'secure_create_api_key',
      {
        p_current_password: PASSWORD,
        p_label: 'Cart',
        p_scopes: [
          'btcpay.store.cancreateinvoice',
          'btcpay.store.canviewinvoices',
          'btcpay.store.webhooks.canmodifywebhooks',
        ],
      },
      admin,
    )
    key = made.body.key as string
    storeId = (await rpc(f.t.app, 'secure_fetch_api_keys', {}, admin)).body.store_id as string
    // The watcher's clock runs a minute ahead at each reading: every pass is due a look.
    let clock = Date.now()
    watcher = createSightingWatcher({
      db: f.t.database.db,
      chain: f.t.app.services.chains.require('bsc'),
      now: () => {
        clock += 60_000
        return clock
      },
    })
    worker = createWebhookWorker({ db: f.t.database.db, allowPrivate: true, backoffBaseMs: 10 })
  })
  afterAll(async () => {
    await watcher?.stop()
    await f?.close()
    await receiver?.close()
  })

  it('New → Processing → Settled, with InvoiceCreated, ReceivedPayment, Processing, Settled once each', async () => {
    const hook = await api('POST', `/api/v1/stores/${storeId}/webhooks`, { url: `${receiver.url}/btcpay` })
    expect(hook.status).toBe(200)
    const secret = hook.body.secret as string

    const created = await api('POST', `/api/v1/stores/${storeId}/invoices`, {
      amount: '12.50',
      metadata: { orderId: 'evm-1' },
      checkout: { paymentMethods: ['USDT-BSC'] },
    })
    expect(created.status).toBe(200)
    const id = created.body.id as string
    expect(await invoice(id)).toMatchObject({ status: 'New', checkout: { paymentMethods: ['USDT-BSC'] } })
    const [order] = await f.rows(
      sql`select o.wallet_address, o.chain, o.token from orders o join invoices i on i.order_id = o.id where i.id = ${id}`,
    )
    expect(order).toMatchObject({ chain: 'bsc', token: 'USDT' })

    await watcher.runOnce()
    const usdt = f.nodes.bsc.tokens.USDT as Address
    const hash = await transfer(
      f.nodes.bsc.anvil,
      usdt,
      f.buyer,
      order?.wallet_address as Address,
      1250n * 10n ** 16n,
    )
    await watcher.runOnce()
    expect(await invoice(id)).toMatchObject({ status: 'Processing', additionalStatus: 'None' })

    await f.finalise('bsc')
    // The follower reads up to the final head; on a loaded machine a pass may end early: it goes on.
    await waitFor('the invoice settled', async () => {
      await f.nodes.bsc.follower.runOnce()
      return (await invoice(id)).status === 'Settled'
    })
    expect(await invoice(id)).toMatchObject({ status: 'Settled', additionalStatus: 'None' })
    const methods = await api('GET', `/api/v1/stores/${storeId}/invoices/${id}/payment-methods`)
    expect(methods.body[0]).toMatchObject({ paymentMethod: 'USDT-BSC', totalPaid: '12.50', due: '0.00' })
    expect(methods.body[0].payments[0]).toMatchObject({
      status: 'Settled',
      value: expect.stringMatching(/^12\.50*$/),
    })
    expect(methods.body[0].payments[0].id).toContain(hash)

    await worker.drain()
    // A second pass, a second look of the watcher: nothing is sent twice.
    await watcher.runOnce()
    await worker.drain()
    const hits = receiver.received.filter((r) => r.url === '/btcpay')
    expect(hits.map((r) => JSON.parse(r.body).type)).toEqual([
      'InvoiceCreated',
      'InvoiceReceivedPayment',
      'InvoiceProcessing',
      'InvoiceSettled',
    ])
    for (const hit of hits) {
      expect(btcpayClientVerifies(secret, hit.body, hit.headers['btcpay-sig'] as string)).toBe(true)
      expect(JSON.parse(hit.body)).toMatchObject({ invoiceId: id, storeId, metadata: { orderId: 'evm-1' } })
    }
    expect(JSON.parse(hits[3]?.body as string)).toMatchObject({ manuallyMarked: false, overPaid: false })
  })

  it('paid in part: the payment link asks for the rest in base units, never the whole amount again', async () => {
    const created = await api('POST', `/api/v1/stores/${storeId}/invoices`, {
      amount: '10.00',
      checkout: { paymentMethods: ['USDT-BSC'] },
    })
    const id = created.body.id as string
    const [order] = await f.rows(
      sql`select o.wallet_address from orders o join invoices i on i.order_id = o.id where i.id = ${id}`,
    )
    const address = order?.wallet_address as Address
    const usdt = f.nodes.bsc.tokens.USDT as Address
    const link = async () =>
      (await api('GET', `/api/v1/stores/${storeId}/invoices/${id}/payment-methods`)).body[0] as {
        paymentLink: string
        due: string
      }
    const asked = (uri: string) => /[?&]uint256=(\d+)$/.exec(uri)?.[1]
    expect(asked((await link()).paymentLink)).toBe(String(10n * 10n ** 18n))

    // 4 USDT and one base unit arrive: 6 USDT less that unit is still due, exactly.
    await transfer(f.nodes.bsc.anvil, usdt, f.buyer, address, 4n * 10n ** 18n + 1n)
    await f.finalise('bsc')
    await waitFor('the transfer credited', async () => {
      await f.nodes.bsc.follower.runOnce()
      return (await invoice(id)).additionalStatus === 'PaidPartial'
    })
    const partial = await link()
    expect(partial.paymentLink).toContain(`/transfer?address=${address}&uint256=`)
    expect(asked(partial.paymentLink)).toBe(String(6n * 10n ** 18n - 1n))
    expect(partial.due).toBe('6.00')
    expect((await invoice(id)).status).toBe('New')
  })
})
