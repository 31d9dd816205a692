import { Laptop, Loader2 } from 'lucide-react'
import type { DashboardLicence } from '../../../shared/dashboard'
import type { DashboardRefund } from '../../../shared/refunds'
import { buttonStyles } from '../../components/ui/button'
import { useFormat, useT } from '../../i18n/i18n'
import { toast } from '../../lib/toast'
import { useDeactivateSeat } from './api/deactivate-seat'

// Under each key: the machines it is activated on, each with "Deactivate" so the buyer frees a
// seat without writing to support; and the licence's expiry or why it no longer works.

export function LicenceSeats({
  licence,
  token,
  name,
  refund,
}: {
  licence: DashboardLicence
  token: string
  name: string
  /** The order's sent refund that disabled its keys, if any: a disabled licence names it. */
  refund?: DashboardRefund
}) {
  const t = useT()
  const format = useFormat()
  const deactivate = useDeactivateSeat(token)
  const date = (iso: string) => format.dateTime(new Date(iso))
  const pending = deactivate.isPending ? deactivate.variables : null

  const free = (instance: DashboardLicence['instances'][number]) =>
    deactivate.mutate(instance.id, {
      onSuccess: () => toast.success(t('dashboard.licence.deactivated', { name: instance.name })),
      onError: (error) => toast.error(t('dashboard.licence.deactivateFailed', { error: error.message })),
    })

  return (
    <div className="rounded-xl border border-line bg-white/[0.02] p-3 text-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <p className="font-medium text-fg">
          {licence.activation_limit === null
            ? t('dashboard.licence.activationsUnlimited', { used: licence.activation_usage })
            : t('dashboard.licence.activations', {
                used: licence.activation_usage,
                limit: licence.activation_limit,
              })}
        </p>
        {licence.expires_at && licence.status !== 'expired' && (
          <p className="text-xs text-muted">
            {t('dashboard.licence.expires', { date: date(licence.expires_at) })}
          </p>
        )}
      </div>
      {licence.status === 'disabled' && (
        <p className="mt-2 text-xs text-red-300">
          {refund
            ? t('dashboard.licence.disabledRefunded', {
                amount: format.token(refund.amount, refund.token),
                date: refund.sent_at ? date(refund.sent_at) : '',
              })
            : t('dashboard.licence.disabled')}
        </p>
      )}
      {licence.status === 'expired' && licence.expires_at && (
        <p className="mt-2 text-xs text-amber-300">
          {t('dashboard.licence.expired', { date: date(licence.expires_at) })}
        </p>
      )}
      {licence.instances.length === 0 ? (
        <p className="mt-2 text-xs text-muted">{t('dashboard.licence.none')}</p>
      ) : (
        <ul className="mt-2 divide-y divide-line" aria-label={t('dashboard.licence.listLabel', { name })}>
          {licence.instances.map((instance) => (
            <li key={instance.id} className="flex items-center gap-3 py-2">
              <Laptop className="size-4 shrink-0 text-muted" aria-hidden />
              <div className="min-w-0 flex-1">
                <p className="truncate text-fg">{instance.name}</p>
                <p className="text-xs text-muted">
                  {t('dashboard.licence.activatedOn', { date: date(instance.created_at) })}
                </p>
              </div>
              <button
                type="button"
                className={`${buttonStyles.secondary} shrink-0 px-3 py-1.5 text-xs`}
                aria-label={t('dashboard.licence.deactivateNamed', { name: instance.name })}
                disabled={pending === instance.id}
                onClick={() => free(instance)}
              >
                {pending === instance.id && <Loader2 className="size-3.5 animate-spin" aria-hidden />}
                {t('dashboard.licence.deactivate')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
