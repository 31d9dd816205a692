import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useRef } from 'react'
import {
  confirmTransactionAnswerSchema,
  type OrderStatusAnswer,
  orderStatusAnswerSchema,
} from '../../../../shared/order-status'
import { secretOfOrder } from '../../../lib/checkout-store'
import { callRpc } from '../../../lib/rpc-client'
import { useStatusStream } from './status-stream'

export const STATUS_POLL_MS = 3_000

/** How long the last status call took, and whether it brought news (a version other than the one sent). */
let lastCallMs = 0
let lastCallNews = false

export const orderStatusKeys = { order: (orderId: string | null) => ['order-status', orderId] as const }

export type OrderStatus = Extract<OrderStatusAnswer, { success: true }>

/**
 * knownVersion: the long poll; the server answers when the status changed, or within 10 s.
 * invoiceId: an invoice's hosted page, which watches its order by the invoice's id (no secret).
 */
export async function getOrderStatus(
  orderId: string,
  knownVersion?: string,
  invoiceId?: string,
): Promise<OrderStatus> {
  const answer = orderStatusAnswerSchema.parse(
    await callRpc(
      'secure_get_order_status',
      {
        p_order_id: orderId,
        p_order_secret: secretOfOrder(orderId),
        ...(invoiceId ? { p_invoice_id: invoiceId } : {}),
        ...(knownVersion ? { p_known_version: knownVersion } : {}),
      },
      { idempotent: true, quiet: true },
    ),
  )
  if (!answer.success) throw new Error(answer.error)
  return answer
}

/** While the stream is open, the status call is still asked this often: a net under the stream. */
export const STREAM_POLL_MS = 15_000

/**
 * The payment watch: the server watches the chain; the page asks it. While the order's stream is
 * open (status-stream.ts) the shop tells the page of news at once and the page asks again then (and
 * every 15 s). Otherwise the page asks with the version it already has and the server holds the call
 * until something changes (a transfer seen, confirmed, dropped, paid) or 10 s pass: the next call
 * starts at once after one that was held or brought a new version, and otherwise (an error, a server
 * that did not hold) never sooner than 3 s after the previous one started, the plain poll kept as the
 * fallback, and after the stream drops until it is open again.
 */
export function useOrderStatus(orderId: string | null, invoiceId?: string) {
  const client = useQueryClient()
  const key = orderStatusKeys.order(orderId)
  const streaming = useStatusStream(
    orderId,
    () => void client.invalidateQueries({ queryKey: key }),
    invoiceId,
  )
  const streamOpen = useRef(streaming)
  streamOpen.current = streaming
  return useQuery({
    queryKey: key,
    queryFn: async () => {
      const started = Date.now()
      const known = streamOpen.current ? undefined : client.getQueryData<OrderStatus>(key)?.version
      lastCallNews = false
      try {
        const answer = await getOrderStatus(orderId as string, known, invoiceId)
        lastCallNews = answer.version !== undefined && answer.version !== known
        return answer
      } finally {
        lastCallMs = Date.now() - started
      }
    },
    enabled: Boolean(orderId),
    refetchInterval: () =>
      streaming ? STREAM_POLL_MS : lastCallNews ? 1 : Math.max(50, STATUS_POLL_MS - lastCallMs),
    refetchIntervalInBackground: true,
    gcTime: 0,
  })
}

export async function confirmTransaction(orderId: string, hash: string) {
  return confirmTransactionAnswerSchema.parse(
    await callRpc(
      'secure_confirm_transaction',
      { p_order_id: orderId, p_transaction_hash: hash, p_order_secret: secretOfOrder(orderId) },
      { idempotent: true, quiet: true },
    ),
  )
}
