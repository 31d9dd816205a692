import { useQuery } from '@tanstack/react-query'
import { type CheckDiscountAnswer, checkDiscountAnswerSchema } from '../../../../shared/discounts'
import type { CartItem } from '../../../lib/cart-store'
import { callRpc } from '../../../lib/rpc-client'

// The checkout's discount: the server prices the cart and answers what the code takes off (or why
// it does not apply). Asked again whenever the cart changes, never on a timer or on focus.

export const discountKeys = {
  check: (code: string | null, lines: readonly CartItem[]) =>
    // The price is part of the key: a catalogue update that changes it asks the server again.
    ['discount', code, lines.map((l) => [l.product.id, l.quantity, l.product.price])] as const,
}

export function useDiscountCheck(code: string | null, lines: readonly CartItem[]) {
  return useQuery({
    queryKey: discountKeys.check(code, lines),
    queryFn: async (): Promise<CheckDiscountAnswer> =>
      checkDiscountAnswerSchema.parse(
        await callRpc(
          'secure_check_discount',
          {
            p_code: code,
            p_items: lines.map((line) => ({ product: { id: line.product.id }, quantity: line.quantity })),
          },
          { idempotent: true },
        ),
      ),
    enabled: code !== null && lines.length > 0,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    retry: false,
  })
}
