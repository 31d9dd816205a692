import { ChevronLeft, ChevronRight } from 'lucide-react'
import { useState } from 'react'
import { type AuditAction, auditActions } from '../../../../shared/cockpit'
import { Button } from '../../../components/ui/button'
import { useT } from '../../../i18n/i18n'
import { inputClass, Panel } from '../components/fields'
import { useOrderFormat } from '../lib/orders-format'
import { type AuditQuery, useAuditLog } from './api/audit'

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
  const t = useT()
  const orderFmt = useOrderFormat()
  const [action, setAction] = useState<AuditAction | ''>('')
  const [from, setFrom] = useState('')
  const [to, setTo] = useState('')
  const [page, setPage] = useState(1)
  const query: AuditQuery = { action, from: localToIso(from), to: localToIso(to), page }
  const log = useAuditLog(query)
  const data = log.data
  const pages = data ? Math.max(1, Math.ceil(data.total_count / data.page_size)) : 1
  const entries = data?.entries ?? []

  return (
    <Panel title={data ? t('admin.audit.titleCount', { count: data.total_count }) : t('admin.audit.title')}>
      <div className="mb-4 grid gap-3 sm:grid-cols-3">
        <select
          aria-label={t('admin.audit.filter')}
          value={action}
          onChange={(e) => {
            setAction(e.target.value as AuditAction | '')
            setPage(1)
          }}
          className={inputClass}
        >
          <option value="">{t('admin.audit.all')}</option>
          {auditActions.map((a) => (
            <option key={a} value={a}>
              {t(`admin.audit.action.${a}`)}
            </option>
          ))}
        </select>
        <input
          type="datetime-local"
          aria-label={t('admin.from')}
          value={from}
          onChange={(e) => {
            setFrom(e.target.value)
            setPage(1)
          }}
          className={inputClass}
        />
        <input
          type="datetime-local"
          aria-label={t('admin.to')}
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
          {t('admin.loading')}
        </p>
      ) : entries.length === 0 ? (
        <p className="py-10 text-center text-muted">{t('admin.audit.empty')}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-line" aria-label={t('admin.audit.entries')}>
          {entries.map((e) => (
            <li key={e.id} className="grid gap-1 py-3 text-sm md:grid-cols-[10rem_12rem_1fr]">
              <span className="text-muted">{orderFmt.date(e.at)}</span>
              <span className="font-medium text-fg">
                {(auditActions as readonly string[]).includes(e.action)
                  ? t(`admin.audit.action.${e.action as AuditAction}`)
                  : e.action}
                <span className="block text-xs font-normal text-muted">
                  {t('admin.audit.by', { actor: e.actor })}
                </span>
              </span>
              <span className="min-w-0 text-fg/90">
                {e.target && <span className="mr-2 font-mono text-xs break-all">{e.target}</span>}
                <span className="break-words">{detailsText(e.details)}</span>
                <span className="block truncate text-xs text-muted" title={e.user_agent}>
                  {e.ip} · {e.user_agent || t('admin.audit.noBrowser')}
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}

      {pages > 1 && (
        <nav
          aria-label={t('admin.audit.pages')}
          className="mt-4 flex items-center justify-between gap-3 text-sm text-muted"
        >
          <Button variant="secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            <ChevronLeft className="size-4" aria-hidden /> {t('admin.previous')}
          </Button>
          <span>{t('admin.pageOf', { page, pages })}</span>
          <Button variant="secondary" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
            {t('admin.next')} <ChevronRight className="size-4" aria-hidden />
          </Button>
        </nav>
      )}
    </Panel>
  )
}
