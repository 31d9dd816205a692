import { useEffect, useRef, useState } from 'react'
import { STATUS_STREAM_PATH } from '../../../../shared/order-status'
import { secretOfOrder } from '../../../lib/checkout-store'
import { openStream } from '../../../lib/rpc-client'

// The payment page's stream (decision 066): the shop says "status" the moment it records news about
// the order, and the page asks the status call again (one path for the answer: the status query).
// Server-sent events read from a POST, so the order's secret travels in the body, not the URL.

/** After the stream ends or fails, it is opened again this long after (the 3 s poll runs meanwhile). */
const REOPEN_MS = 3_000

/**
 * Opens the order's stream while orderId is set (an invoice's hosted page names its invoice, as its
 * status call does); onNews runs on each event and once each time the stream (re)opens (news missed
 * while it was closed). Answers whether the stream is open now.
 */
export function useStatusStream(orderId: string | null, onNews: () => void, invoiceId?: string): boolean {
  const [open, setOpen] = useState(false)
  const news = useRef(onNews)
  news.current = onNews
  useEffect(() => {
    if (!orderId || typeof ReadableStream === 'undefined') return
    let stopped = false
    let controller: AbortController | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    const connect = async () => {
      controller = new AbortController()
      let again = REOPEN_MS
      try {
        const res = await openStream(
          STATUS_STREAM_PATH,
          {
            p_order_id: orderId,
            p_order_secret: secretOfOrder(orderId),
            ...(invoiceId ? { p_invoice_id: invoiceId } : {}),
          },
          controller.signal,
        )
        if (!res.ok || !res.body || !res.headers.get('content-type')?.startsWith('text/event-stream')) {
          // Not this order's page to follow, or no stream here: the poll alone.
          if (res.status < 429) return
          // Over the shop's caps: again when it says.
          again = Math.max(REOPEN_MS, Number(res.headers.get('retry-after') ?? 30) * 1000)
        } else {
          await readEvents(res.body, (event) => {
            if (event === 'ready') setOpen(true)
            news.current()
          })
        }
      } catch {
        // A dropped connection: opened again below.
      }
      setOpen(false)
      if (!stopped) timer = setTimeout(connect, again)
    }
    void connect()
    return () => {
      stopped = true
      clearTimeout(timer)
      controller?.abort()
      setOpen(false)
    }
  }, [orderId, invoiceId])
  return open
}

/** Reads server-sent events until the stream ends, calling onEvent with each event's name. */
async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (event: string) => void) {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    buffer += decoder.decode(value, { stream: true })
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const event = /^event: (\w+)$/m.exec(buffer.slice(0, end))?.[1]
      buffer = buffer.slice(end + 2)
      if (event) onEvent(event)
    }
  }
}
