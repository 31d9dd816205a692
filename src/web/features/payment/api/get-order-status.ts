import { useQuery } from '@tanstack/react-query'
import {
  confirmTransactionAnswerSchema,
  type OrderStatusAnswer,
  orderStatusAnswerSchema,
} from '../../../../shared/order-status'
import { secretOfOrder } from '../../../lib/checkout-store'
import { callRpc } from '../../../lib/rpc-client'

export const STATUS_POLL_MS = 3_000

export const orderStatusKeys = { order: (orderId: string | null) => ['order-status', orderId] as const }

export type OrderStatus = Extract<OrderStatusAnswer, { success: true }>

export async function getOrderStatus(orderId: string): Promise<OrderStatus> {
  const answer = orderStatusAnswerSchema.parse(
    await callRpc(
      'secure_get_order_status',
      { p_order_id: orderId, p_order_secret: secretOfOrder(orderId) },
      { idempotent: true, quiet: true },
    ),
  )
  if (!answer.success) throw new Error(answer.error)
  return answer
}

/** The payment watch: the server watches the chain; the page asks it every 3 s. */
export function useOrderStatus(orderId: string | null) {
  return useQuery({
    queryKey: orderStatusKeys.order(orderId),
    queryFn: () => getOrderStatus(orderId as string),
    enabled: Boolean(orderId),
    refetchInterval: STATUS_POLL_MS,
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
