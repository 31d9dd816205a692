import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { DiscountCodeRow, SaveDiscountInput } from '../../../../../shared/discounts'
import { callRpc } from '../../../../lib/rpc-client'
import { accepted } from '../../api/admin-query-client'

// The Discounts tab's calls. The list is safe to retry; writes are sent once, refresh the list,
// and a failure is told by the admin client's error toast.

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

export function useDiscountCodes() {
  return useQuery({ queryKey: discountsKeys.list, queryFn: discountsApi.list })
}

export function useSaveDiscount() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: SaveDiscountInput) => accepted(await discountsApi.save(input)),
    meta: { failure: 'admin.discounts.requestFailed' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: discountsKeys.list }),
  })
}

export function useSetDiscountDisabled() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (code: DiscountCodeRow) =>
      accepted(await discountsApi.setDisabled(code.id, !code.disabled)),
    meta: { failure: 'admin.discounts.requestFailed' },
    onSettled: () => queryClient.invalidateQueries({ queryKey: discountsKeys.list }),
  })
}
