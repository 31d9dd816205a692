import type { AdminOrder } from '../../../../shared/admin'
import { Button } from '../../../components/ui/button'
import { type MessageId, useT } from '../../../i18n/i18n'
import { useReviewHeldOrder } from './api/orders'

/**
 * An order held for review: a transfer to it came from a sender who paid another order at the same
 * (reused) address, so it may be that payer's money rather than this buyer's. The operator releases
 * it (the order is paid with it and delivered) or refuses it (the transfer stays unmatched).
 */
const decisions = [
  { decision: 'release', label: 'admin.held.release', aria: 'admin.held.releaseLabel', variant: 'secondary' },
  { decision: 'refuse', label: 'admin.held.refuse', aria: 'admin.held.refuseLabel', variant: 'ghost' },
] as const satisfies { decision: string; label: MessageId; aria: MessageId; variant: string }[]

export function HeldReview({ order }: { order: AdminOrder }) {
  const t = useT()
  const review = useReviewHeldOrder(order.id)
  const busy = review.isPending
  return (
    <div className="mt-2 rounded-lg border border-amber-500/30 bg-amber-500/10 p-2 text-xs text-amber-200">
      <p className="font-semibold">{t('admin.held.title')}</p>
      <p className="mt-0.5 text-amber-200/80">{t('admin.held.text')}</p>
      <div className="mt-2 flex gap-2">
        {decisions.map(({ decision, label, aria, variant }) => (
          <Button
            key={decision}
            variant={variant}
            className="px-2.5! py-1! text-xs"
            disabled={busy}
            aria-label={t(aria, { id: order.id })}
            onClick={() => review.mutate(decision)}
          >
            {t(label)}
          </Button>
        ))}
      </div>
    </div>
  )
}
