import { type MessageId, useFormat, useT } from '../../../i18n/i18n'
import { useOrderSightings } from './api/orders'

// Sightings in the admin (decision 024): an order whose transfer was seen in the chain's head and is
// not final yet is "confirming" with the amount seen; the order's detail lists what was seen,
// confirmed, dropped, and the transfers that failed on chain with the chain's reason.

/** The orders list's badge: confirming, with the dollars seen. */
export function ConfirmingMark({ amount }: { amount: number | null | undefined }) {
  const t = useT()
  const { usd } = useFormat()
  if (amount === null || amount === undefined) return null
  return (
    <span
      data-testid="order-confirming"
      className="rounded-md bg-sky-500/15 px-1.5 py-0.5 text-[11px] font-semibold text-sky-300"
    >
      {t('admin.order.confirming', { amount: usd(amount) })}
    </span>
  )
}

const STATUS: Record<string, MessageId> = {
  seen: 'admin.order.sighting.seen',
  confirmed: 'admin.order.sighting.confirmed',
  dropped: 'admin.order.sighting.dropped',
  failed: 'admin.order.sighting.failed',
}

/** The order detail's section: every transfer seen before it was final. Nothing when none. */
export function OrderSightings({ orderId }: { orderId: string }) {
  const t = useT()
  const { token } = useFormat()
  const sightings = useOrderSightings(orderId)
  const rows = sightings.data?.sightings ?? []
  if (rows.length === 0) return null
  return (
    <>
      <h3 className="mt-6 font-semibold text-fg">{t('admin.order.sightings')}</h3>
      <ul className="mt-2 space-y-2 text-sm" data-testid="order-sightings">
        {rows.map((s) => (
          <li key={`${s.tx_id}-${s.status}`} className="rounded-lg border border-line p-2">
            <span className="font-semibold">{token(s.amount, s.token)}</span>{' '}
            <span className={s.status === 'failed' ? 'text-red-300' : 'text-muted'}>
              {t(STATUS[s.status] as MessageId, { block: s.block_number, reason: s.failure ?? '' })}
            </span>
            <div className="font-mono text-xs break-all text-muted">{s.tx_id}</div>
          </li>
        ))}
      </ul>
    </>
  )
}
