import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Mail } from 'lucide-react'
import { formatUsd } from '../../../shared/money'
import { Button } from '../../components/ui/button'
import { Modal } from '../../components/ui/modal'
import { toast } from '../../lib/toast'
import { adminApi, adminKeys } from './api/admin-api'
import { Mark } from './components/mark'
import { formatOrderDate, formatOrderItems } from './orders-format'

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 border-b border-line/60 py-2 sm:grid-cols-[10rem_1fr]">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="text-sm break-all text-fg">{children}</dd>
    </div>
  )
}

export function OrderDetailModal({ orderId, onClose }: { orderId: string; onClose: () => void }) {
  const queryClient = useQueryClient()
  const detail = useQuery({ queryKey: adminKeys.order(orderId), queryFn: () => adminApi.order(orderId) })
  const resendMail = useMutation({
    mutationFn: () => adminApi.resendOrderEmail(orderId),
    onSuccess: async (answer) => {
      if (answer.success) toast.success('E-mail queued for sending again', { duration: 2000 })
      else toast.error(answer.error)
      await queryClient.invalidateQueries({ queryKey: adminKeys.order(orderId) })
    },
    onError: () => toast.error('Failed to queue the e-mail'),
  })
  const resending = resendMail.isPending
  const resend = () => resendMail.mutate()

  const data = detail.data
  return (
    <Modal open onClose={onClose} title="Order details">
      <div className="p-6 sm:p-8">
        <h2 className="text-xl font-semibold text-fg">Order details</h2>
        {!data ? (
          <p role="status" className="py-8 text-muted">
            {detail.isError ? 'Failed to load the order' : 'Loading...'}
          </p>
        ) : (
          <>
            <dl className="mt-4">
              <Row label="Order ID">
                <span className="font-mono">{data.order.id}</span>
              </Row>
              <Row label="Date">{formatOrderDate(data.order.created_at)}</Row>
              <Row label="Email">{data.order.email}</Row>
              <Row label="Status">
                <span className="flex flex-wrap items-center gap-2">
                  {data.order.status}
                  {data.order.late && <Mark tone="amber">Late</Mark>}
                  {data.order.underpaid && <Mark tone="red">Underpaid</Mark>}
                </span>
              </Row>
              <Row label="Items">{formatOrderItems(data.order.items)}</Row>
              <Row label="Total">{formatUsd(data.order.total)}</Row>
              {data.order.trx_amount && <Row label="Total in TRX">{data.order.trx_amount} TRX</Row>}
              <Row label="Received">
                {formatUsd(data.order.amount_received)}
                {data.order.trx_received !== '0.00' && ` (includes ${data.order.trx_received} TRX)`}
              </Row>
              <Row label="Wallet">
                <span className="font-mono">{data.order.wallet_address}</span>
              </Row>
              <Row label="Paid at">{data.order.paid_at ? formatOrderDate(data.order.paid_at) : '—'}</Row>
            </dl>

            <h3 className="mt-6 font-semibold text-fg">Keys handed out</h3>
            {data.keys.length === 0 ? (
              <p className="mt-1 text-sm text-muted">None</p>
            ) : (
              <ul className="mt-2 space-y-1 font-mono text-sm">
                {data.keys.map((k) => (
                  <li key={k.key} className="break-all">
                    #{k.product_id}: {k.key}
                  </li>
                ))}
              </ul>
            )}

            <h3 className="mt-6 font-semibold text-fg">Payments</h3>
            {data.payments.length === 0 ? (
              <p className="mt-1 text-sm text-muted">None</p>
            ) : (
              <ul className="mt-2 space-y-2 text-sm">
                {data.payments.map((p) => (
                  <li key={p.id} className="rounded-lg border border-line p-2">
                    <span className="font-semibold">
                      {p.amount} {p.token}
                    </span>{' '}
                    {p.late && <Mark tone="amber">Late</Mark>}
                    <div className="font-mono text-xs break-all text-muted">{p.tx_id}</div>
                  </li>
                ))}
              </ul>
            )}

            <h3 className="mt-6 font-semibold text-fg">E-mail</h3>
            {data.mails.length === 0 ? (
              <p className="mt-1 text-sm text-muted">No e-mail queued</p>
            ) : (
              <ul className="mt-2 space-y-2 text-sm">
                {data.mails.map((m) => (
                  <li key={m.id} className="rounded-lg border border-line p-2">
                    {m.kind} to {m.to_email}: <span className="font-semibold">{m.status}</span> ({m.attempts}{' '}
                    attempt{m.attempts === 1 ? '' : 's'})
                    {m.last_error && <div className="text-xs text-red-300">{m.last_error}</div>}
                  </li>
                ))}
              </ul>
            )}
            {data.mails.length > 0 && (
              <Button variant="secondary" className="mt-3" onClick={resend} disabled={resending}>
                <Mail className="size-4" aria-hidden />
                Resend
              </Button>
            )}
          </>
        )}
      </div>
    </Modal>
  )
}
