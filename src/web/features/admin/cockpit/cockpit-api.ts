import type {
  AuditAction,
  DashboardAnswer,
  DeliveryModeOption,
  FetchAuditLogAnswer,
} from '../../../../shared/cockpit'
import { callRpc } from '../../../lib/rpc-client'
import type { Outcome } from '../api/admin-api'

// The cockpit's calls: the sales dashboard, the audit log, stock settings; and the CSV export links.

export interface AuditQuery {
  action: AuditAction | ''
  /** ISO timestamps, or '' for open ends. */
  from: string
  to: string
  page: number
}

export const cockpitApi = {
  dashboard: () => callRpc<DashboardAnswer>('secure_fetch_sales_dashboard', {}, { idempotent: true }),
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
  updateStockSettings: (productId: number, mode: DeliveryModeOption, threshold: number | null) =>
    callRpc<Outcome>('secure_update_stock_settings', {
      p_product_id: productId,
      p_delivery_mode: mode,
      p_low_stock_threshold: threshold,
    }),
}

export const cockpitKeys = {
  dashboard: ['admin', 'sales-dashboard'] as const,
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
