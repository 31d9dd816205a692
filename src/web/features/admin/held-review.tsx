import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { AdminOrder } from '../../../shared/admin'
import { Button } from '../../components/ui/button'
import { toast } from '../../lib/toast'
import { adminApi, adminKeys } from './api/admin-api'

/**
 * An order held for review: a transfer to it came from a sender who paid another order at the same
 * (reused) address, so it may be that payer's money rather than this buyer's. The operator releases
 * it (the order is paid with it and delivered) or refuses it (the transfer stays unmatched).
 */
const decisions = [
  { decision: 'release', label: 'Release', variant: 'secondary' },
  { decision: 'refuse', label: 'Refuse', variant: 'ghost' },
] as const

export function HeldReview({ order }: { order: AdminOrder }) {
  const queryClient = useQueryClient()
  const review = useMutation({
    mutationFn: (decision: 'release' | 'refuse') => adminApi.reviewHeldOrder(order.id, decision),
    onSuccess: (answer, decision) => {
      if (!answer.success) {
        toast.error(answer.error)
        return
      }
      if (decision === 'refuse') toast.success('Payment refused; it stays under Unmatched payments')
      else toast.success(answer.paid ? 'Payment released; the order is paid' : 'Payment released')
    },
    onError: () => toast.error('Failed to review the order'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  })
  const busy = review.isPending
  return (
    <div className="mt-2 rounded-lg border border-amber-500/30 bg-amber-500/10 p-2 text-xs text-amber-200">
      <p className="font-semibold">Held for review</p>
      <p className="mt-0.5 text-amber-200/80">
        Its sender paid another order at this address before. Release to deliver, or refuse.
      </p>
      <div className="mt-2 flex gap-2">
        {decisions.map(({ decision, label, variant }) => (
          <Button
            key={decision}
            variant={variant}
            className="px-2.5! py-1! text-xs"
            disabled={busy}
            aria-label={`${label} held payment of order ${order.id}`}
            onClick={() => review.mutate(decision)}
          >
            {label}
          </Button>
        ))}
      </div>
    </div>
  )
}
