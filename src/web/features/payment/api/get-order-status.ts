import { useQuery, useQueryClient } from '@tanstack/react-query'
import {
  confirmTransactionAnswerSchema,
  type OrderStatusAnswer,
  orderStatusAnswerSchema,
} from '../../../../shared/order-status'
import { secretOfOrder } from '../../../lib/checkout-store'
import { callRpc } from '../../../lib/rpc-client'

export const STATUS_POLL_MS = 3_000

/** How long the last status call took (a held call is long: the next one may start at once). */
let lastCallMs = 0

export const orderStatusKeys = { order: (orderId: string | null) => ['order-status', orderId] as const }

export type OrderStatus = Extract<OrderStatusAnswer, { success: true }>

/** knownVersion: the long poll; the server answers when the status changed, or within 10 s. */
export async function getOrderStatus(orderId: string, knownVersion?: string): Promise<OrderStatus> {
  const answer = orderStatusAnswerSchema.parse(
    await callRpc(
      'secure_get_order_status',
      {
        p_order_id: orderId,
        p_order_secret: secretOfOrder(orderId),
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
 * has, and the server holds the call until something changes (a transfer seen, confirmed, dropped)
 * or 10 s pass. The next call starts at once after a held one, and never sooner than 3 s after the
 * previous one started: never more often than the plain 3 s poll it replaces.
 */
export function useOrderStatus(orderId: string | null) {
  const client = useQueryClient()
  const key = orderStatusKeys.order(orderId)
  return useQuery({
    queryKey: key,
    queryFn: async () => {
      const started = Date.now()
      try {
        return await getOrderStatus(orderId as string, client.getQueryData<OrderStatus>(key)?.version)
      } finally {
        lastCallMs = Date.now() - started
      }
    },
    enabled: Boolean(orderId),
    refetchInterval: () => Math.max(50, STATUS_POLL_MS - lastCallMs),
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
