import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type {
  AuditAction,
  DeliveryModeOption,
  FetchAuditLogAnswer,
  SalesAnswer,
} from '../../../../../shared/cockpit'
import { useT } from '../../../../i18n/i18n'
import { callRpc } from '../../../../lib/rpc-client'
import { toast } from '../../../../lib/toast'
import type { Outcome } from '../../api/admin-api'
import { accepted } from '../../api/admin-query-client'
import { adminProductKeys } from '../../products/api/products'

// The cockpit's calls: the sales view (figures, chart, stock, health), the audit log, stock settings; and the CSV export links.

export interface AuditQuery {
  action: AuditAction | ''
  /** ISO timestamps, or '' for open ends. */
  from: string
  to: string
  page: number
}

/** A product's delivery and licence settings as the Stock tab saves them. */
export interface StockSettingsInput {
  mode: DeliveryModeOption
  threshold: number | null
  licenceLimit: number | null
  licenceDays: number | null
}

export const cockpitApi = {
  sales: () => callRpc<SalesAnswer>('secure_fetch_sales', {}, { idempotent: true }),
  auditLog: (q: AuditQuery) =>
    callRpc<FetchAuditLogAnswer>(
      'secure_fetch_audit_log',
      {
        p_action: q.action || undefined,
        p_from: q.from || undefined,
        p_to: q.to || undefined,
        p_page: q.page,
      },
      { idempotent: true },
    ),
  updateStockSettings: (productId: number, settings: StockSettingsInput) =>
    callRpc<Outcome>('secure_update_stock_settings', {
      p_product_id: productId,
      p_delivery_mode: settings.mode,
      p_low_stock_threshold: settings.threshold,
      p_licence_activation_limit: settings.licenceLimit,
      p_licence_validity_days: settings.licenceDays,
    }),
}

export const cockpitKeys = {
  sales: ['admin', 'sales'] as const,
  audit: (q: AuditQuery) => ['admin', 'audit-log', q] as const,
}

/** The download link of an export; the orders one carries the Orders tab's search and status. */
export function exportUrl(
  kind: 'orders' | 'payments' | 'unmatched',
  filters: { search?: string; status?: string } = {},
) {
  const params = new URLSearchParams()
  if (filters.search) params.set('search', filters.search)
  if (filters.status && filters.status !== 'all') params.set('status', filters.status)
  const query = params.toString()
  return `/api/admin/export/${kind}.csv${query ? `?${query}` : ''}`
}

export function useSales() {
  return useQuery({ queryKey: cockpitKeys.sales, queryFn: cockpitApi.sales, refetchInterval: 60_000 })
}

/** The stock list reads the sales figures once (no refresh while a row is being edited). */
export function useStock() {
  return useQuery({ queryKey: cockpitKeys.sales, queryFn: cockpitApi.sales })
}

export function useAuditLog(query: AuditQuery) {
  return useQuery({
    queryKey: cockpitKeys.audit(query),
    queryFn: () => cockpitApi.auditLog(query),
    placeholderData: keepPreviousData,
  })
}

/** A product's delivery mode and low-stock threshold: the sales figures and the Products tab change. */
export function useUpdateStockSettings(product: { product_id: number; name: string }) {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: StockSettingsInput) =>
      accepted(await cockpitApi.updateStockSettings(product.product_id, input)),
    meta: { failure: 'admin.stock.saveFailed' },
    onSuccess: () => toast.success(t('admin.stock.saved', { name: product.name }), { duration: 2000 }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: cockpitKeys.sales }),
        queryClient.invalidateQueries({ queryKey: adminProductKeys.all }),
      ]),
  })
}
