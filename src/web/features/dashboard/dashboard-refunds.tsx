import { ExternalLink, Undo2 } from 'lucide-react'
import { networkWithStandard } from '../../../shared/networks'
import type { DashboardRefund } from '../../../shared/refunds'
import { type MessageId, useFormat, useT } from '../../i18n/i18n'

// The order's refunds on the buyer's dashboard: amount and network, where it goes, its state, and
// once sent the transaction on the network's explorer.

const stateIds: Record<DashboardRefund['status'], MessageId> = {
  awaiting_address: 'dashboard.refund.state.awaiting_address',
  ready: 'dashboard.refund.state.ready',
  sent: 'dashboard.refund.state.sent',
  cancelled: 'dashboard.refund.state.cancelled',
}

export function DashboardRefunds({ refunds }: { refunds: DashboardRefund[] }) {
  const t = useT()
  const { token, dateTime } = useFormat()
  if (refunds.length === 0) return null
  return (
    <section
      aria-labelledby="refunds-title"
      className="rounded-2xl border border-violet-400/30 bg-card p-5 sm:p-6"
    >
      <h2 id="refunds-title" className="flex items-center gap-2 text-base font-semibold text-fg">
        <Undo2 className="size-4 text-violet-300" aria-hidden />
        {t('dashboard.refunds.title')}
      </h2>
      <ul className="mt-4 space-y-4 text-sm">
        {refunds.map((r, n) => (
          <li key={n} className="space-y-1">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <span className="font-semibold text-fg tabular-nums">
                {token(r.amount, r.token)}
                <span className="font-normal text-muted"> · {networkWithStandard(r.network, r.token)}</span>
              </span>
              <span className={r.status === 'sent' ? 'text-emerald-300' : 'text-muted'}>
                {t(stateIds[r.status])}
                {r.sent_at ? ` · ${dateTime(new Date(r.sent_at))}` : ''}
              </span>
            </div>
            {r.address && (
              <p className="font-mono text-xs break-all text-muted">
                {t('dashboard.refund.line', { address: r.address })}
              </p>
            )}
            {r.tx_url && (
              <a
                href={r.tx_url}
                target="_blank"
                rel="noopener noreferrer"
                className="inline-flex items-center gap-1.5 text-xs text-primary hover:underline"
              >
                {t('dashboard.refund.tx')}
                <ExternalLink className="size-3.5" aria-hidden />
              </a>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}
