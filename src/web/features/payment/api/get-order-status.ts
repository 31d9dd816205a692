import { useQuery, useQueryClient } from '@tanstack/react-query'
import {
  confirmTransactionAnswerSchema,
  type OrderStatusAnswer,
  orderStatusAnswerSchema,
} from '../../../../shared/order-status'
import { secretOfOrder } from '../../../lib/checkout-store'
import { callRpc } from '../../../lib/rpc-client'

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

/**
 * The payment watch: the server watches the chain; the page asks it with the version it already
 * has, and the server holds the call until something changes (a transfer seen, confirmed, dropped,
 * paid) or 10 s pass. So a held call is always waiting: the next call starts at once after one that
 * was held or brought a new version (the shop's news reaches the page as it records it, even two
 * changes in a row), and otherwise (an error, a server that did not hold, an answer without a
 * version) never sooner than 3 s after the previous one started, the plain poll kept as the fallback.
 */
export function useOrderStatus(orderId: string | null, invoiceId?: string) {
  const client = useQueryClient()
  const key = orderStatusKeys.order(orderId)
  return useQuery({
    queryKey: key,
    queryFn: async () => {
      const started = Date.now()
      const known = client.getQueryData<OrderStatus>(key)?.version
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
    refetchInterval: () => (lastCallNews ? 1 : Math.max(50, STATUS_POLL_MS - lastCallMs)),
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
