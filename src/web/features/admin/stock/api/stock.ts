import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { DeliveryModeOption } from '../../../../../shared/cockpit'
import { useT } from '../../../../i18n/i18n'
import { toast } from '../../../../lib/toast'
import { type Outcome, write } from '../../api/admin-api'
import { accepted } from '../../api/admin-query-client'
import { adminProductKeys } from '../../products/api/products'
import { fetchSales, salesKeys } from '../../sales/api/sales'

// The Stock tab: the sales figures' stock rows, and each product's delivery mode, threshold and
// licence terms.

/** The stock list reads the sales figures once (no refresh while a row is being edited). */
export function useStock() {
  return useQuery({ queryKey: salesKeys.sales, queryFn: fetchSales })
}

/** A product's delivery and licence settings as the Stock tab saves them. */
export interface StockSettingsInput {
  mode: DeliveryModeOption
  threshold: number | null
  licenceLimit: number | null
  licenceDays: number | null
}

const updateStockSettings = (productId: number, settings: StockSettingsInput) =>
  write<Outcome>('secure_update_stock_settings', {
    p_product_id: productId,
    p_delivery_mode: settings.mode,
    p_low_stock_threshold: settings.threshold,
    p_licence_activation_limit: settings.licenceLimit,
    p_licence_validity_days: settings.licenceDays,
  })

/** A product's delivery mode and low-stock threshold: the sales figures and the Products tab change. */
export function useUpdateStockSettings(product: { product_id: number; name: string }) {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: StockSettingsInput) =>
      accepted(await updateStockSettings(product.product_id, input)),
    meta: { failure: 'admin.stock.saveFailed' },
    onSuccess: () => toast.success(t('admin.stock.saved', { name: product.name }), { duration: 2000 }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: salesKeys.sales }),
        queryClient.invalidateQueries({ queryKey: adminProductKeys.all }),
      ]),
  })
}
