import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { toast } from 'sonner'
import { type AdminPayment, unmatchedReasonLabels } from '../../../shared/admin'
import { Button } from '../../components/ui/button'
import { adminApi, adminKeys } from './api/admin-api'
import { Panel, TextInput } from './components/fields'
import { formatOrderDate } from './orders-format'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

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
  const [orderId, setOrderId] = useState('')
  const [busy, setBusy] = useState(false)
  async function assign() {
    if (!UUID.test(orderId.trim())) {
      toast.error('Enter the full order ID')
      return
    }
    setBusy(true)
    try {
      const answer = await adminApi.assignPayment(payment.id, orderId.trim())
      if (answer.success) {
        toast.success('Payment assigned to the order', { duration: 2000 })
        await queryClient.invalidateQueries({ queryKey: adminKeys.all })
      } else toast.error(answer.error)
    } catch {
      toast.error('Failed to assign the payment')
    } finally {
      setBusy(false)
    }
  }
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
      <div className="mt-2 flex flex-col gap-2 sm:flex-row">
        <TextInput
          aria-label={`Order ID for payment ${payment.id}`}
          placeholder="Order ID"
          value={orderId}
          onChange={(e) => setOrderId(e.target.value)}
        />
        <Button variant="secondary" onClick={assign} disabled={busy}>
          Assign
        </Button>
      </div>
    </li>
  )
}
