import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createPaymentFixture, type PaymentFixture } from '../../../tests/support/payment-fixture'
import { adminSession, rpc } from '../../../tests/support/test-app'
import { engines } from '../../../tests/support/test-db'
import { STATUS_STREAM_PATH } from '../../shared/order-status'

// The payment page's stream over real HTTP: a page that opened it is told within 200 ms once the
// shop records a payment (by the chain's follower, or by the operator), only with the order's
// secret, never past the caps per client and in all, with heartbeats, and a closed page frees its
// place at once.

interface OpenStream {
  status: number
  headers: Headers
  body: Record<string, unknown> | null
  /** Resolves with the time (performance.now()) the stream carried this text. */
  seen(text: string, timeoutMs?: number): Promise<number>
  close(): void
}

describe.each(engines)('the payment page’s stream (%s)', (engine) => {
  let f: PaymentFixture
  let base: string
  beforeAll(async () => {
    f = await createPaymentFixture(engine, {
      env: {
        TRUST_PROXY: '1',
        STATUS_STREAMS_PER_CLIENT: '2',
        STATUS_STREAMS_MAX: '3',
        STATUS_STREAM_HEARTBEAT_MS: '100',
        ADMIN_PASSWORD: 'status stream test password',
      },
    })
    await f.t.app.listen({ port: 0, host: '127.0.0.1' })
    const address = f.t.app.server.address()
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  }, 120_000)
  afterAll(async () => {
    await f?.close()
  })
  /** Every stream a test opened is closed after it, passed or failed. */
  const opened: OpenStream[] = []
  afterEach(() => {
    for (const s of opened.splice(0)) s.close()
  })

  async function open(body: object, client = '10.0.0.1'): Promise<OpenStream> {
    const abort = new AbortController()
    const res = await fetch(`${base}${STATUS_STREAM_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: JSON.stringify(body),
      signal: abort.signal,
    })
    if (res.headers.get('content-type')?.startsWith('text/event-stream') !== true) {
      return {
        status: res.status,
        headers: res.headers,
        body: (await res.json()) as Record<string, unknown>,
        seen: () => Promise.reject(new Error('no stream')),
        close: () => abort.abort(),
      }
    }
    let text = ''
    const waiting: { text: string; resolve: (at: number) => void }[] = []
    const reader = (res.body as ReadableStream<Uint8Array>).getReader()
    const decoder = new TextDecoder()
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read()
          if (done) return
          text += decoder.decode(value, { stream: true })
          const at = performance.now()
          for (const w of [...waiting]) {
            if (text.includes(w.text)) {
              waiting.splice(waiting.indexOf(w), 1)
              w.resolve(at)
            }
          }
        }
      } catch {}
    })()
    const stream: OpenStream = {
      status: res.status,
      headers: res.headers,
      body: null,
      seen(wanted, timeoutMs = 10_000) {
        if (text.includes(wanted)) return Promise.resolve(performance.now())
        return new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`the stream never carried ${wanted}`)), timeoutMs)
          waiting.push({
            text: wanted,
            resolve: (at) => {
              clearTimeout(timer)
              resolve(at)
            },
          })
        })
      },
      close: () => abort.abort(),
    }
    opened.push(stream)
    return stream
  }
  const place = async () => {
    const o = await f.placeOrder()
    return { ...o, secret: f.secretOf(o.id) as string }
  }
  /** Opens until the server has let go of earlier streams (it counts a closed one off when its socket closes). */
  async function openWhenFree(body: object, client: string): Promise<OpenStream> {
    const deadline = Date.now() + 5_000
    for (;;) {
      const s = await open(body, client)
      if (s.status === 200 || Date.now() > deadline) return s
      await new Promise((r) => setTimeout(r, 20))
    }
  }

  it('tells the open page within 200 ms that the follower recorded its payment', async () => {
    const o = await place()
    const stream = await open({ p_order_id: o.id, p_order_secret: o.secret })
    expect(stream.status).toBe(200)
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    expect(stream.headers.get('x-accel-buffering')).toBe('no')
    expect(stream.headers.get('cache-control')).toBe('no-cache, no-transform')
    await stream.seen('event: ready')
    // Heartbeats keep an idle stream open behind proxies.
    await stream.seen(': ping', 2_000)

    const told = stream.seen(`event: status\ndata: {"order_id":"${o.id}"}`)
    await f.pay({ to: o.address, amount: o.total.toFixed(2) })
    const recorded = performance.now()
    expect(await told).toBeLessThan(recorded + 200)
    expect(await f.status(o.id)).toMatchObject({ status: 'paid' })
    stream.close()
  })

  it('a payment in part (the follower’s commit names no order) is told within 200 ms from one read of the open orders', async () => {
    const o = await place()
    const stream = await openWhenFree({ p_order_id: o.id, p_order_secret: o.secret }, '10.0.0.3')
    await stream.seen('event: ready')
    const told = stream.seen('event: status')
    await f.pay({ to: o.address, amount: (o.total / 2).toFixed(2) })
    const recorded = performance.now()
    expect(await told).toBeLessThan(recorded + 200)
    expect(await f.status(o.id)).toMatchObject({ status: 'pending', shortfall: { token: 'USDT' } })
    stream.close()
  })

  it('tells the open page within 200 ms that the operator marked it paid', async () => {
    const admin = await adminSession(f.t)
    const o = await place()
    const stream = await openWhenFree({ p_order_id: o.id, p_order_secret: o.secret }, '10.0.0.2')
    await stream.seen('event: ready')
    const told = stream.seen('event: status')
    const marked = await rpc(
      f.t.app,
      'secure_update_order_status',
      { p_order_id: o.id, p_status: 'paid' },
      admin,
    )
    const recorded = performance.now()
    expect(marked.body.success).toBe(true)
    expect(await told).toBeLessThan(recorded + 200)
    stream.close()
  })

  it('refuses without the order’s secret, an unknown order and a malformed body, in words', async () => {
    const o = await place()
    const missing = await open({ p_order_id: o.id })
    expect(missing.status).toBe(403)
    expect(missing.body).toEqual({
      success: false,
      error: "The order's secret is missing or wrong: this page cannot follow the order",
    })
    expect((await open({ p_order_id: o.id, p_order_secret: 'x'.repeat(43) })).status).toBe(403)
    const unknown = await open({
      p_order_id: '00000000-0000-4000-8000-000000000000',
      p_order_secret: o.secret,
    })
    expect(unknown).toMatchObject({ status: 404, body: { success: false, error: 'Order not found' } })
    const bad = await open({ p_order_id: 'x'.repeat(5000), p_order_secret: o.secret })
    expect(bad.status).toBe(400)
    expect(String(bad.body?.error)).toMatch(/^Invalid request: p_order_id/)
    expect((await open({ p_order_id: o.id, p_order_secret: o.secret, p_more: 1 })).status).toBe(400)
  })

  it('holds at most 2 streams per client and 3 in all; a closed page frees its place', async () => {
    const o = await place()
    const body = { p_order_id: o.id, p_order_secret: o.secret }
    const a1 = await openWhenFree(body, '10.0.1.1')
    const a2 = await openWhenFree(body, '10.0.1.1')
    expect([a1.status, a2.status]).toEqual([200, 200])
    const a3 = await open(body, '10.0.1.1')
    expect(a3.status).toBe(429)
    expect(a3.headers.get('retry-after')).toBe('30')
    expect(a3.body?.error).toBe(
      'Too many payment pages are open from this address; this page asks every few seconds instead',
    )
    const b1 = await openWhenFree(body, '10.0.2.1')
    expect(b1.status).toBe(200)
    const b2 = await open(body, '10.0.2.1')
    expect(b2.status).toBe(503)
    expect(b2.body?.error).toBe(
      'The shop follows as many payment pages as it can; this page asks every few seconds instead',
    )
    // A page that goes away gives its place back.
    a1.close()
    const again = await openWhenFree(body, '10.0.2.1')
    expect(again.status).toBe(200)
    for (const s of [a2, b1, again]) s.close()
  })
})
