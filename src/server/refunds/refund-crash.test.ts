import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { simpleParser } from 'mailparser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testAddresses } from '../../../tests/support/payment-fixture'
import { startSmtp } from '../../../tests/support/smtp-peer'
import { spawnShop } from '../../../tests/support/spawn-shop'
import { waitFor } from '../../../tests/support/wait'
import { createDevchain, type Devchain } from '../../../tools/devchain/devchain'

// kill -9 between "sent" and the e-mail: the refund is marked sent with its e-mail in the outbox, in
// one transaction; the process dies while its mail server has not taken the mail; the next start
// sends it, once.

const PASSWORD = 'correct horse battery'
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36'
const [BUYER_WALLET, OPERATOR_WALLET] = testAddresses(2, 'refund crash') as [string, string]

/** A mail server that takes connections and never says a word: the mail worker waits on it. */
async function startSilentSmtp(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>()
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}

describe('a refund e-mail after kill -9', () => {
  let chain: Devchain
  let dataDir: string

  beforeAll(async () => {
    chain = await createDevchain({ blockIntervalMs: 200, solidifyLag: 2, priceUsd: '0.25' })
    dataDir = mkdtempSync(join(tmpdir(), 'stablecart-refund-crash-'))
  })
  afterAll(async () => {
    await chain.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('is sent exactly once by the next start', { timeout: 240_000 }, async () => {
    const silent = await startSilentSmtp()
    const env = {
      DATA_DIR: dataDir,
      TRON_API_URL: chain.url,
      ADMIN_PASSWORD: PASSWORD,
      REFUND_WATCH_MS: '1000',
      FOLLOWER_INTERVAL_MS: '200',
      CHAIN_BLOCK_MS: '200',
      LOG_LEVEL: 'warn',
    }
    const first = await spawnShop({ ...env, SMTP_URL: silent.url })
    const call = async (
      shop: { url: string },
      name: string,
      body: object,
      headers: Record<string, string> = {},
    ) => {
      const res = await fetch(`${shop.url}/rpc/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': BROWSER, ...headers },
        body: JSON.stringify(body),
      })
      return (await res.json()) as Record<string, unknown>
    }
    const login = await fetch(`${first.url}/rpc/secure_admin_login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
      body: JSON.stringify({ p_username: 'admin', p_password: PASSWORD }),
    })
    const cookie = String(login.headers.get('set-cookie')).split(';')[0] as string
    const products = (await call(first, 'fetch_products', {})).products as {
      id: number
      price: number
      is_free: boolean
    }[]
    const product = products.find((p) => !p.is_free && p.price > 0) as { id: number; price: number }
    const placed = await call(first, 'secure_create_order', {
      p_email: 'buyer@example.com',
      p_items: [{ product: { id: product.id }, quantity: 1 }],
      p_total: product.price,
    })
    expect(placed.success).toBe(true)
    chain.transfer({ to: placed.wallet_address as string, amount: product.price.toFixed(2) })
    const orderId = placed.order_id as string
    await waitFor(
      'the order to be paid',
      async () => (await call(first, 'secure_get_order_status', { p_order_id: orderId })).paid === true,
      60_000,
    )
    const admin = { cookie }
    const started = await call(
      first,
      'secure_create_refund',
      {
        p_order_id: orderId,
        p_token: 'USDT',
        p_full: true,
        p_reason: 'Double purchase',
        p_disable_keys: false,
        p_request_key: randomUUID(),
        p_address: BUYER_WALLET,
      },
      admin,
    )
    expect(started).toMatchObject({ success: true, refund: { status: 'ready' } })
    // The operator pays from their own wallet; the shop's watch proves it.
    chain.transfer({ to: BUYER_WALLET, amount: product.price.toFixed(2), from: OPERATOR_WALLET })
    await waitFor(
      'the refund to be proven on the chain',
      async () => {
        const list = (await call(first, 'secure_fetch_refunds', { p_order_id: orderId }, admin)).refunds as {
          status: string
        }[]
        return list?.[0]?.status === 'sent'
      },
      60_000,
    )
    // Its mail is in the outbox; the mail server has not taken it. The process dies here.
    await first.kill()
    await silent.close()

    const smtp = await startSmtp()
    const second = await spawnShop({ ...env, SMTP_URL: smtp.url })
    try {
      const refundMails = async () =>
        (await Promise.all(smtp.received.map((raw) => simpleParser(raw)))).filter((m) =>
          /refund .* was sent/i.test(m.subject ?? ''),
        )
      const mails = await waitFor(
        'the refund e-mail',
        async () => {
          const found = await refundMails()
          return found.length > 0 ? found : null
        },
        60_000,
      )
      expect(mails).toHaveLength(1)
      expect(mails[0]?.to).toMatchObject({ text: 'buyer@example.com' })
      expect(mails[0]?.text).toContain('tronscan.org/#/transaction/')
      // The refund's mail is marked sent in the outbox: it will not go again. (The order's own mail,
      // in flight when the process died, is retried after its two minutes: decision 007.)
      const login2 = await fetch(`${second.url}/rpc/secure_admin_login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
        body: JSON.stringify({ p_username: 'admin', p_password: PASSWORD }),
      })
      const admin2 = { cookie: String(login2.headers.get('set-cookie')).split(';')[0] as string }
      const refundKind = `refund_sent:${(started.refund as { id: number }).id}`
      await waitFor(
        "the refund's mail to be marked sent",
        async () => {
          const detail = await call(second, 'secure_fetch_order', { p_order_id: orderId }, admin2)
          const mails = (detail.mails ?? []) as { kind: string; status: string }[]
          return mails.some((m) => m.kind === refundKind && m.status === 'sent')
        },
        60_000,
      )
      expect(await refundMails()).toHaveLength(1)
      const status = await call(second, 'secure_get_order_status', { p_order_id: orderId })
      expect(status.paid).toBe(true)
    } finally {
      await second.stop()
      await smtp.close()
    }
  })
})
