import { useMutation } from '@tanstack/react-query'
import { callRpc } from '../../../lib/rpc-client'
import { confirmTransaction } from './get-order-status'

/** "Already paid?": the server checks the named transaction on chain itself. */
export function useConfirmTransaction(orderId: string) {
  return useMutation({ mutationFn: (hash: string) => confirmTransaction(orderId, hash) })
}

/**
 * Cancel frees the order's address. A failure is not shown: the lease also ends on its own after
 * the window and the grace period, and the buyer is not held up.
 */
export function useCancelOrder() {
  return useMutation({
    mutationFn: async (orderId: string) => {
      try {
        await callRpc('secure_cancel_order', { p_order_id: orderId }, { idempotent: true, quiet: true })
      } catch {}
    },
  })
}
