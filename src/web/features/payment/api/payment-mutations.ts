import { useMutation } from '@tanstack/react-query'
import { secretOfOrder } from '../../../lib/checkout-store'
import { callRpc } from '../../../lib/rpc-client'
import { confirmTransaction } from './get-order-status'

/** "Already paid?": the server checks the named transaction on chain itself. */
export function useConfirmTransaction(orderId: string) {
  return useMutation({ mutationFn: (hash: string) => confirmTransaction(orderId, hash) })
}

/**
 * Cancel ends the order (its address then cools down). A failure is not shown: an unpaid order also
 * ends on its own after the window and the grace period, and the buyer is not held up.
 */
export function useCancelOrder() {
  return useMutation({
    mutationFn: async (orderId: string) => {
      try {
        // Only the browser that placed the order holds its secret, and only it may cancel.
        await callRpc(
          'secure_cancel_order',
          { p_order_id: orderId, p_order_secret: secretOfOrder(orderId) },
          { idempotent: true, quiet: true },
        )
      } catch {}
    },
  })
}
