import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { DeliveryModeOption } from '../../../../../shared/cockpit'
import { useT } from '../../../../i18n/i18n'
import { toast } from '../../../../lib/toast'
import { type Outcome, write } from '../../api/admin-api'
import { accepted } from '../../api/admin-query-client'
import { adminProductKeys } from '../../products/api/products'
import { fetchSales, salesKeys } from '../../sales/api/sales'

// The Stock tab: the sales figures' stock rows, and each product's delivery mode and threshold.

/** The stock list reads the sales figures once (no refresh while a row is being edited). */
export function useStock() {
  return useQuery({ queryKey: salesKeys.sales, queryFn: fetchSales })
}

const updateStockSettings = (productId: number, mode: DeliveryModeOption, threshold: number | null) =>
  write<Outcome>('secure_update_stock_settings', {
    p_product_id: productId,
    p_delivery_mode: mode,
    p_low_stock_threshold: threshold,
  })

/** A product's delivery mode and low-stock threshold: the sales figures and the Products tab change. */
export function useUpdateStockSettings(product: { product_id: number; name: string }) {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: { mode: DeliveryModeOption; threshold: number | null }) =>
      accepted(await updateStockSettings(product.product_id, input.mode, input.threshold)),
    meta: { failure: 'admin.stock.saveFailed' },
    onSuccess: () => toast.success(t('admin.stock.saved', { name: product.name }), { duration: 2000 }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: salesKeys.sales }),
        queryClient.invalidateQueries({ queryKey: adminProductKeys.all }),
      ]),
  })
}
