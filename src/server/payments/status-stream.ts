import type { ServerResponse } from 'node:http'
import type { Db } from '../db/client'
import { orderFingerprints } from '../orders/orders.repo'
import type { OrderWatch } from './order-watch'

// The payment page's stream (decision 066): an open page holds one server-sent-events response and is
// told "status" the moment the shop records news about its order; the page then asks the status call
// again (the answer itself only ever comes from there, behind the order's secret). One notifier for
// the process (order-watch.ts: the places that make an order paid or confirming, the sighting
// watcher, the follower's commits); this fans it out. A commit that names no order, and a timer every
// few seconds for news another process wrote, cost one query for all open pages together (their
// orders' fingerprints), never one per page.

export interface StatusStreamOptions {
  db: Db
  watch: OrderWatch
  /** Streams open at once, in all and per client address (rateLimitKey). */
  maxTotal: number
  maxPerClient: number
  /** A comment line this often keeps proxies (nginx: 60 s) and the browser from closing an idle stream. */
  heartbeatMs: number
  /** The fingerprints are read again this often while a stream is open (news from another process). */
  recheckMs?: number
  onError?: (err: unknown) => void
}

export interface StatusStreams {
  /** Why a new stream from this client is refused now, or null when it may open. */
  refusal(clientKey: string): 'per_client' | 'total' | null
  /** Starts the stream on a hijacked response; it ends when the client goes. */
  open(orderId: string, clientKey: string, res: ServerResponse): Promise<void>
  /** Open streams (tests, metrics, the bench). */
  count(): number
  /** Ends every stream and stops the timers. */
  close(): void
}

interface Stream {
  orderId: string
  clientKey: string
  res: ServerResponse
}

const FINGERPRINT_BATCH = 500

export function createStatusStreams(opts: StatusStreamOptions): StatusStreams {
  const byOrder = new Map<string, Set<Stream>>()
  const perClient = new Map<string, number>()
  /** The last fingerprint read of each watched order. */
  const prints = new Map<string, string>()
  /** Orders already told of their news by name: the next check takes their fingerprint quietly. */
  const told = new Set<string>()
  let total = 0
  let checking: Promise<void> | null = null
  let again = false
  let heartbeat: NodeJS.Timeout | null = null
  let recheck: NodeJS.Timeout | null = null

  const write = (s: Stream, text: string) => {
    if (!s.res.destroyed && !s.res.writableEnded) s.res.write(text)
  }
  const tell = (orderId: string) => {
    for (const s of byOrder.get(orderId) ?? []) write(s, `event: status\ndata: {"order_id":"${orderId}"}\n\n`)
  }

  async function checkOnce() {
    const ids = [...byOrder.keys()]
    for (let i = 0; i < ids.length; i += FINGERPRINT_BATCH) {
      const batch = ids.slice(i, i + FINGERPRINT_BATCH)
      const now = await orderFingerprints(opts.db, batch)
      for (const id of batch) {
        const print = now.get(id) ?? 'gone'
        const before = prints.get(id)
        if (!byOrder.has(id)) continue
        if (before !== undefined && before !== print && !told.has(id)) tell(id)
        told.delete(id)
        prints.set(id, print)
      }
    }
  }
  /** One check at a time; a request during one runs one more after it. */
  function check(): Promise<void> {
    if (checking) {
      again = true
      return checking
    }
    checking = (async () => {
      try {
        do {
          again = false
          await checkOnce()
        } while (again)
      } catch (err) {
        opts.onError?.(err)
      } finally {
        checking = null
      }
    })()
    return checking
  }

  const unsubscribe = opts.watch.subscribe((ids) => {
    if (total === 0) return
    if (ids === '*') {
      void check()
      return
    }
    // Told now; the next check (the commit's, or the timer's) takes their new fingerprint quietly.
    for (const id of ids) {
      if (!byOrder.has(id)) continue
      tell(id)
      told.add(id)
    }
  })

  function startTimers() {
    heartbeat ??= setInterval(() => {
      for (const set of byOrder.values()) for (const s of set) write(s, ': ping\n\n')
    }, opts.heartbeatMs)
    recheck ??= setInterval(() => void check(), opts.recheckMs ?? 3_000)
    heartbeat.unref()
    recheck.unref()
  }
  function stopTimers() {
    if (heartbeat) clearInterval(heartbeat)
    if (recheck) clearInterval(recheck)
    heartbeat = recheck = null
  }

  function remove(s: Stream) {
    const set = byOrder.get(s.orderId)
    if (!set?.delete(s)) return
    total -= 1
    const left = (perClient.get(s.clientKey) ?? 1) - 1
    if (left > 0) perClient.set(s.clientKey, left)
    else perClient.delete(s.clientKey)
    if (set.size === 0) {
      byOrder.delete(s.orderId)
      prints.delete(s.orderId)
      told.delete(s.orderId)
    }
    if (total === 0) stopTimers()
  }

  return {
    refusal(clientKey) {
      if (total >= opts.maxTotal) return 'total'
      if ((perClient.get(clientKey) ?? 0) >= opts.maxPerClient) return 'per_client'
      return null
    },
    async open(orderId, clientKey, res) {
      const s: Stream = { orderId, clientKey, res }
      const set = byOrder.get(orderId) ?? new Set()
      byOrder.set(orderId, set)
      set.add(s)
      total += 1
      perClient.set(clientKey, (perClient.get(clientKey) ?? 0) + 1)
      res.on('close', () => remove(s))
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // nginx passes each event on at once instead of buffering the response.
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
      })
      startTimers()
      // The baseline the checks compare with, read before the page is told it may ask again.
      if (!prints.has(orderId)) {
        try {
          const now = await orderFingerprints(opts.db, [orderId])
          if (byOrder.has(orderId) && !prints.has(orderId)) prints.set(orderId, now.get(orderId) ?? 'gone')
        } catch (err) {
          opts.onError?.(err)
        }
      }
      write(s, 'retry: 3000\nevent: ready\ndata: {}\n\n')
    },
    count: () => total,
    close() {
      unsubscribe()
      stopTimers()
      for (const set of [...byOrder.values()]) for (const s of [...set]) s.res.end()
    },
  }
}
