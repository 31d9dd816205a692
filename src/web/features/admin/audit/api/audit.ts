import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { AuditAction, FetchAuditLogAnswer } from '../../../../../shared/cockpit'
import { read } from '../../api/admin-api'

// The audit log, a page at a time, filtered by action and period.

export interface AuditQuery {
  action: AuditAction | ''
  /** ISO timestamps, or '' for open ends. */
  from: string
  to: string
  page: number
}

const fetchAuditLog = (q: AuditQuery) =>
  read<FetchAuditLogAnswer>('secure_fetch_audit_log', {
    p_action: q.action || undefined,
    p_from: q.from || undefined,
    p_to: q.to || undefined,
    p_page: q.page,
  })

export function useAuditLog(query: AuditQuery) {
  return useQuery({
    queryKey: ['admin', 'audit-log', query] as const,
    queryFn: () => fetchAuditLog(query),
    placeholderData: keepPreviousData,
  })
}
