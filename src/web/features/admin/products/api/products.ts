import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type AdminProduct, adminMessages } from '../../../../../shared/admin'
import { useT } from '../../../../i18n/i18n'
import { productKeys } from '../../../../lib/api/get-products'
import { toast } from '../../../../lib/toast'
import { type Outcome, read, write } from '../../api/admin-api'
import { Refused } from '../../api/admin-query-client'

// The Products tab's calls. Each write says when it worked and refreshes the admin's list and the
// storefront's catalogue in this tab; a failure is told by the admin client's error toast.

/** Product toasts stay 3 s. */
export const PRODUCT_TOAST = { duration: 3000 }

export const adminProductKeys = { all: ['admin', 'products'] as const }

export function useAdminProducts() {
  return useQuery({
    queryKey: adminProductKeys.all,
    queryFn: () => read<{ success: true; products: AdminProduct[] }>('secure_fetch_admin_products'),
  })
}

function useRefreshProducts() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminProductKeys.all }),
      // The storefront's catalogue in this tab.
      queryClient.invalidateQueries({ queryKey: productKeys.all }),
    ])
}

export function useSaveProduct() {
  const t = useT()
  const refresh = useRefreshProducts()
  return useMutation({
    mutationFn: async (input: { product: unknown; keys: string; isNew: boolean }) => {
      const answer = await write<Outcome & { product_id?: number; keys_added?: number }>(
        'secure_manage_product',
        { p_product: input.product, p_keys: input.keys.trim() ? input.keys : undefined },
      )
      if (!answer.success)
        throw new Refused(
          answer.error === adminMessages.downloadUrlRequired
            ? t('admin.products.downloadUrlRequired')
            : answer.error,
        )
      return answer
    },
    meta: { failure: 'admin.products.saveFailed', toast: PRODUCT_TOAST },
    onSuccess: async (_answer, { isNew }) => {
      toast.success(isNew ? t('admin.products.added') : t('admin.products.updated'), PRODUCT_TOAST)
      await refresh()
    },
  })
}

export function useDeleteProduct() {
  const t = useT()
  const refresh = useRefreshProducts()
  return useMutation({
    mutationFn: async (id: number) => {
      const answer = await write('secure_delete_product', { p_product_id: id })
      // Refused or not, the operator reads "Failed to delete product".
      if (!answer.success) throw new Error(answer.error)
      return answer
    },
    meta: { failure: 'admin.products.deleteFailed', toast: PRODUCT_TOAST },
    onSuccess: () => toast.success(t('admin.products.deleted'), PRODUCT_TOAST),
    onSettled: () => refresh(),
  })
}
