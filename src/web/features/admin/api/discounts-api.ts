import type { DiscountCodeRow, SaveDiscountInput } from '../../../../shared/discounts'
import { callRpc } from '../../../lib/rpc-client'

// The Discounts tab's calls. The list is safe to retry; writes are sent once.

type Refusal = { success: false; error: string }

export const discountsApi = {
  list: () =>
    callRpc<{ success: true; codes: DiscountCodeRow[] }>('secure_fetch_discounts', {}, { idempotent: true }),
  save: (input: SaveDiscountInput) =>
    callRpc<{ success: true; id: number } | Refusal>('secure_save_discount', input),
  setDisabled: (id: number, disabled: boolean) =>
    callRpc<{ success: true } | Refusal>('secure_set_discount_disabled', { p_id: id, p_disabled: disabled }),
}

export const discountsKeys = {
  list: ['admin', 'discounts'] as const,
}
