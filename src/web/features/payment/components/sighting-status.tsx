import { AlertTriangle, Info, RadioTower, Undo2 } from 'lucide-react'
import type { OrderSightings } from '../../../../shared/order-status'
import { type MessageId, useFormat, useT } from '../../../i18n/i18n'

// What the payment page says about transfers seen in the chain's head before they are final
// (decision 024): detected and confirming, with the amount seen and the blocks still to come;
// dropped; failed on chain, with the reason in plain words and what to do; and that the browser's
// earlier order, whose payment is in flight, was kept (decision 041).

type Confirming = NonNullable<OrderSightings['confirming']>

/** `network`: the order's network when it is not TRON (the texts then name it). */
export function DetectedPanel({
  confirming,
  total,
  network,
}: {
  confirming: Confirming
  total: number
  network?: string
}) {
  const t = useT()
  const { usd } = useFormat()
  const built = confirming.head_block === null ? 0 : Math.max(0, confirming.head_block - confirming.block)
  const needed = built + (confirming.blocks_left ?? 0)
  const percent = Math.round(confirming.progress * 100)
  const title = network ? t('payment.evm.detectedTitle', { network }) : t('payment.detected.title')
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="payment-detected"
      className="flex items-start gap-3 rounded-xl border border-primary/40 bg-primary/10 px-4 py-3 text-sm text-fg"
    >
      <RadioTower className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
      <div className="min-w-0 flex-1 space-y-2">
        <strong className="block font-semibold">{title}</strong>
        <p>{t('payment.detected.amount', { amount: usd(confirming.amount_seen) })}</p>
        <div
          role="progressbar"
          aria-label={title}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-2 overflow-hidden rounded-full bg-white/10"
        >
          <div className="h-full rounded-full bg-primary transition-all" style={{ width: `${percent}%` }} />
        </div>
        <p className="text-xs text-muted">
          {confirming.blocks_left === 0
            ? t('payment.detected.final')
            : t('payment.detected.progress', {
                built,
                needed: Math.max(needed, built),
                seconds: confirming.seconds_left ?? 60,
              })}
        </p>
        {confirming.missing > 0 ? (
          <p className="rounded-lg border border-amber-500/30 bg-amber-500/10 p-2 text-amber-200">
            {t('payment.detected.missing', {
              seen: usd(confirming.amount_seen),
              total: usd(total),
              missing: usd(confirming.missing),
            })}
          </p>
        ) : (
          <p className="text-xs text-muted">{t('payment.detected.safe')}</p>
        )}
      </div>
    </div>
  )
}

export function DroppedNotice({ network }: { network?: string }) {
  const t = useT()
  return (
    <p
      role="status"
      data-testid="payment-dropped"
      className="flex items-start gap-3 rounded-xl border border-amber-500/30 bg-amber-500/10 p-3 text-sm text-amber-100"
    >
      <Undo2 className="mt-0.5 size-4 shrink-0 text-amber-300" aria-hidden />
      {network ? t('payment.evm.dropped', { network }) : t('payment.dropped')}
    </p>
  )
}

/** The browser's earlier order is being paid: it was kept, and this new order has its own address. */
export function EarlierPaymentNotice() {
  const t = useT()
  return (
    <p
      role="status"
      data-testid="earlier-payment-confirming"
      className="flex items-start gap-3 rounded-xl border border-primary/25 bg-primary/5 p-3 text-sm text-fg"
    >
      <Info className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
      {t('payment.earlierConfirming')}
    </p>
  )
}

const REASONS: Record<string, MessageId> = {
  OUT_OF_ENERGY: 'payment.failed.OUT_OF_ENERGY',
  REVERT: 'payment.failed.REVERT',
}

export function FailedTransfers({ failed, network }: { failed: OrderSightings['failed']; network?: string }) {
  const t = useT()
  const { token } = useFormat()
  if (failed.length === 0) return null
  return (
    <ul className="space-y-2" data-testid="payment-failed">
      {failed.map((f) => (
        <li
          key={f.tx_id}
          role="alert"
          className="flex items-start gap-3 rounded-xl border border-red-500/30 bg-red-500/10 p-3 text-sm text-red-100"
        >
          <AlertTriangle className="mt-0.5 size-4 shrink-0 text-red-300" aria-hidden />
          <div className="min-w-0 space-y-1">
            <strong className="block font-semibold text-red-200">
              {network
                ? t('payment.evm.failedTitle', { amount: token(f.amount, f.token), network })
                : t('payment.failed.title', { amount: token(f.amount, f.token) })}
            </strong>
            <p>
              {REASONS[f.reason]
                ? t(REASONS[f.reason] as MessageId)
                : t('payment.failed.other', { reason: f.reason })}
            </p>
            <p className="truncate font-mono text-xs text-muted">
              {t('payment.failed.tx', { hash: f.tx_id })}
            </p>
          </div>
        </li>
      ))}
    </ul>
  )
}
