import { RotateCw } from 'lucide-react'
import { Button } from '../../../components/ui/button'
import { useT } from '../../../i18n/i18n'
import { useOrderFormat } from '../lib/orders-format'
import { useResendWebhook, useWebhookDeliveries } from './api/webhooks'

/**
 * One endpoint's delivery log, newest first, each delivery sent again on request (same event id and
 * body). `invoices`: the invoice API's endpoints, with the invoice each delivery is about.
 */
export function DeliveryLog({ endpointId, invoices = false }: { endpointId: number; invoices?: boolean }) {
  const t = useT()
  const orderFmt = useOrderFormat()
  const log = useWebhookDeliveries(endpointId)
  const resend = useResendWebhook(endpointId)
  if (!log.data) return <p className="mt-3 text-sm text-muted">{t('admin.loading')}</p>
  if (log.data.deliveries.length === 0)
    return <p className="mt-3 text-sm text-muted">{t('admin.webhooks.noDeliveries')}</p>
  return (
    <div className="relative mt-3 overflow-x-auto">
      <table className="w-full text-left text-xs">
        <thead className="whitespace-nowrap text-muted">
          <tr>
            <th className="py-1 pr-3 font-medium">{t('admin.webhooks.col.event')}</th>
            {invoices && <th className="py-1 pr-3 font-medium">{t('admin.webhooks.col.invoice')}</th>}
            <th className="py-1 pr-3 font-medium">{t('admin.webhooks.col.status')}</th>
            <th className="py-1 pr-3 font-medium">{t('admin.webhooks.col.attempts')}</th>
            <th className="py-1 pr-3 font-medium">{t('admin.webhooks.col.last')}</th>
            <th className="py-1 pr-3 font-medium">{t('admin.webhooks.col.created')}</th>
            <th className="py-1 font-medium">
              <span className="sr-only">{t('admin.webhooks.col.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody className="text-fg">
          {log.data.deliveries.map((d) => (
            <tr key={d.id} className="border-t border-line">
              <td className="py-1.5 pr-3 font-mono">{d.event_type}</td>
              {invoices && <td className="py-1.5 pr-3 font-mono whitespace-nowrap">{d.invoice_id ?? '—'}</td>}
              <td className="py-1.5 pr-3">{d.status}</td>
              <td className="py-1.5 pr-3">{d.attempts}</td>
              <td className="max-w-64 truncate py-1.5 pr-3" title={d.last_response ?? ''}>
                {d.last_status_code ?? '—'} {d.last_response ?? ''}
              </td>
              <td className="py-1.5 pr-3 whitespace-nowrap">{orderFmt.date(d.created_at)}</td>
              <td className="py-1.5 whitespace-nowrap">
                <Button
                  variant="ghost"
                  className="px-2 py-1"
                  disabled={resend.isPending}
                  aria-label={
                    invoices ? t('admin.webhooks.redeliverLabel', { event: d.event_type }) : undefined
                  }
                  onClick={() => resend.mutate(d.id)}
                >
                  <RotateCw className="size-3.5" aria-hidden />
                  {invoices ? t('admin.webhooks.redeliver') : t('admin.order.resend')}
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
