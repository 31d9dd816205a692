import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { ChevronLeft, ChevronRight } from 'lucide-react'
import { useState } from 'react'
import { type AuditAction, auditActionLabels, auditActions } from '../../../../shared/cockpit'
import { Button } from '../../../components/ui/button'
import { inputClass, Panel } from '../components/fields'
import { formatOrderDate } from '../orders-format'
import { type AuditQuery, cockpitApi, cockpitKeys } from './cockpit-api'

// Who did what in the admin panel: newest first, filtered by action and time, 50 a page.

/** A datetime-local value (the browser's time) to an ISO timestamp, '' when empty or invalid. */
function localToIso(value: string): string {
  if (!value) return ''
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? '' : date.toISOString()
}

function detailsText(details: Record<string, unknown>): string {
  // A status change reads "pending → paid" (the database keeps the keys in its own order).
  const { from, to, ...rest } = details
  const change = from !== undefined || to !== undefined ? [`${String(from)} → ${String(to)}`] : []
  return [
    ...change,
    ...Object.entries(rest).map(([key, value]) => {
      if (value && typeof value === 'object' && !Array.isArray(value) && 'from' in value && 'to' in value) {
        const v = value as { from: unknown; to: unknown }
        return `${key}: ${String(v.from)} → ${String(v.to)}`
      }
      return `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`
    }),
  ].join('; ')
}

export function AuditTab() {
  const [action, setAction] = useState<AuditAction | ''>('')
  const [from, setFrom] = useState('')
  const [to, setTo] = useState('')
  const [page, setPage] = useState(1)
  const query: AuditQuery = { action, from: localToIso(from), to: localToIso(to), page }
  const log = useQuery({
    queryKey: cockpitKeys.audit(query),
    queryFn: () => cockpitApi.auditLog(query),
    placeholderData: keepPreviousData,
  })
  const data = log.data
  const pages = data ? Math.max(1, Math.ceil(data.total_count / data.page_size)) : 1
  const entries = data?.entries ?? []

  return (
    <Panel title={`Audit log${data ? ` (${data.total_count})` : ''}`}>
      <div className="mb-4 grid gap-3 sm:grid-cols-3">
        <select
          aria-label="Filter by action"
          value={action}
          onChange={(e) => {
            setAction(e.target.value as AuditAction | '')
            setPage(1)
          }}
          className={inputClass}
        >
          <option value="">All actions</option>
          {auditActions.map((a) => (
            <option key={a} value={a}>
              {auditActionLabels[a]}
            </option>
          ))}
        </select>
        <input
          type="datetime-local"
          aria-label="From"
          value={from}
          onChange={(e) => {
            setFrom(e.target.value)
            setPage(1)
          }}
          className={inputClass}
        />
        <input
          type="datetime-local"
          aria-label="To"
          value={to}
          onChange={(e) => {
            setTo(e.target.value)
            setPage(1)
          }}
          className={inputClass}
        />
      </div>

      {log.isLoading ? (
        <p role="status" className="py-10 text-center text-muted">
          Loading...
        </p>
      ) : entries.length === 0 ? (
        <p className="py-10 text-center text-muted">No entries</p>
      ) : (
        <ul className="flex flex-col divide-y divide-line" aria-label="Audit entries">
          {entries.map((e) => (
            <li key={e.id} className="grid gap-1 py-3 text-sm md:grid-cols-[10rem_12rem_1fr]">
              <span className="text-muted">{formatOrderDate(e.at)}</span>
              <span className="font-medium text-fg">
                {auditActionLabels[e.action as AuditAction] ?? e.action}
                <span className="block text-xs font-normal text-muted">by {e.actor}</span>
              </span>
              <span className="min-w-0 text-fg/90">
                {e.target && <span className="mr-2 font-mono text-xs break-all">{e.target}</span>}
                <span className="break-words">{detailsText(e.details)}</span>
                <span className="block truncate text-xs text-muted" title={e.user_agent}>
                  {e.ip} · {e.user_agent || 'no browser given'}
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}

      {pages > 1 && (
        <nav
          aria-label="Audit pages"
          className="mt-4 flex items-center justify-between gap-3 text-sm text-muted"
        >
          <Button variant="secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            <ChevronLeft className="size-4" aria-hidden /> Previous
          </Button>
          <span>
            Page {page} of {pages}
          </span>
          <Button variant="secondary" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
            Next <ChevronRight className="size-4" aria-hidden />
          </Button>
        </nav>
      )}
    </Panel>
  )
}
