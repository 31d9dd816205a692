import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type AdminPayment, assignPaymentInputSchema, unmatchedReasonLabels } from '../../../shared/admin'
import { Button } from '../../components/ui/button'
import { useSchemaForm } from '../../lib/form'
import { toast } from '../../lib/toast'
import { adminApi, adminKeys } from './api/admin-api'
import { Panel, TextInput } from './components/fields'
import { formatOrderDate } from './orders-format'

/** The order id rule of the assign call itself. */
const assignFormSchema = assignPaymentInputSchema.pick({ p_order_id: true })
const fullOrderId = 'Enter the full order ID'

/** Transfers that matched no order: kept for the admin, who can assign each to an order. */
export function UnmatchedPayments() {
  const payments = useQuery({
    queryKey: adminKeys.unmatched,
    queryFn: adminApi.unmatchedPayments,
    refetchInterval: 30_000,
  })
  const list = payments.data?.payments ?? []
  return (
    <Panel title={`Unmatched payments (${list.length})`}>
      {list.length === 0 ? (
        <p className="text-sm text-muted">No unmatched payments</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {list.map((p) => (
            <UnmatchedRow key={p.id} payment={p} />
          ))}
        </ul>
      )}
    </Panel>
  )
}

function UnmatchedRow({ payment }: { payment: AdminPayment }) {
  const queryClient = useQueryClient()
  const assignment = useMutation({
    mutationFn: (id: string) => adminApi.assignPayment(payment.id, id),
    onSuccess: async (answer) => {
      if (!answer.success) {
        toast.error(answer.error)
        return
      }
      toast.success('Payment assigned to the order', { duration: 2000 })
      await queryClient.invalidateQueries({ queryKey: adminKeys.all })
    },
    onError: () => toast.error('Failed to assign the payment'),
  })
  const busy = assignment.isPending
  const form = useSchemaForm({
    schema: assignFormSchema,
    initial: { p_order_id: '' },
    toInput: (v) => ({ p_order_id: v.p_order_id.trim() }),
    message: () => fullOrderId,
    onValid: ({ p_order_id }) => {
      if (!busy) assignment.mutate(p_order_id)
    },
    onInvalid: () => toast.error(fullOrderId),
  })
  return (
    <li className="rounded-xl border border-line p-3 text-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-semibold">
          {payment.amount} {payment.token}
        </span>
        <span className="text-muted">{formatOrderDate(new Date(payment.block_timestamp).toISOString())}</span>
      </div>
      <div className="mt-1 font-mono text-xs break-all text-muted">tx {payment.tx_id}</div>
      <div className="font-mono text-xs break-all text-muted">to {payment.to_address}</div>
      {payment.reason && (
        <div className="mt-1 text-xs text-amber-300">
          {unmatchedReasonLabels[payment.reason] ?? payment.reason}
          {payment.order_id ? (
            <>
              {' '}
              (order <span className="font-mono">{payment.order_id}</span>)
            </>
          ) : null}
        </div>
      )}
      <form {...form.formProps} className="mt-2 flex flex-col gap-2 sm:flex-row">
        <TextInput
          aria-label={`Order ID for payment ${payment.id}`}
          placeholder="Order ID"
          value={form.values.p_order_id}
          onChange={(e) => form.set('p_order_id', e.target.value)}
          {...form.control('p_order_id')}
        />
        <Button type="submit" variant="secondary" disabled={busy}>
          Assign
        </Button>
      </form>
      {form.errors.p_order_id && (
        <p id={form.errorId('p_order_id')} role="alert" className="mt-1.5 text-xs text-red-400">
          {form.errors.p_order_id}
        </p>
      )}
    </li>
  )
}
