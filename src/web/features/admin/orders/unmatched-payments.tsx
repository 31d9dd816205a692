import { type AdminPayment, assignPaymentInputSchema } from '../../../../shared/admin'
import type { UnmatchedReason } from '../../../../shared/unmatched-reasons'
import { Button } from '../../../components/ui/button'
import { type AdminMessageId, Msg, useFormat, useT } from '../../../i18n/i18n'
import { useSchemaForm } from '../../../lib/form'
import { toast } from '../../../lib/toast'
import { Panel, TextInput } from '../components/fields'
import { useOrderFormat } from '../lib/orders-format'
import { ReturnTransfer } from '../refunds/return-transfer'
import { useAssignPayment, useUnmatchedPayments } from './api/orders'

/** Every reason the ledger writes (src/shared/unmatched-reasons.ts), in the operator's language. */
const reasonIds = {
  no_order: 'admin.unmatched.reason.no_order',
  after_paid: 'admin.unmatched.reason.after_paid',
  after_cancelled: 'admin.unmatched.reason.after_cancelled',
  after_grace: 'admin.unmatched.reason.after_grace',
  trx_without_rate: 'admin.unmatched.reason.trx_without_rate',
  zero_value: 'admin.unmatched.reason.zero_value',
  order_deleted: 'admin.unmatched.reason.order_deleted',
  unassigned: 'admin.unmatched.reason.unassigned',
  held_for_review: 'admin.unmatched.reason.held_for_review',
  reused_address: 'admin.unmatched.reason.reused_address',
} as const satisfies Record<UnmatchedReason, AdminMessageId>

/** The order id rule of the assign call itself. */
const assignFormSchema = assignPaymentInputSchema.pick({ p_order_id: true })

/** Transfers that matched no order: kept for the admin, who can assign each to an order. */
export function UnmatchedPayments() {
  const t = useT()
  const payments = useUnmatchedPayments()
  const list = payments.data?.payments ?? []
  return (
    <Panel title={t('admin.unmatched.title', { count: list.length })}>
      {list.length === 0 ? (
        <p className="text-sm text-muted">{t('admin.unmatched.empty')}</p>
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
  const t = useT()
  const { token } = useFormat()
  const orderFmt = useOrderFormat()
  const fullOrderId = t('admin.unmatched.fullId')
  const assignment = useAssignPayment(payment.id)
  const busy = assignment.isPending
  const form = useSchemaForm({
    schema: assignFormSchema,
    initial: { p_order_id: '' },
    toInput: (v) => ({ p_order_id: v.p_order_id.trim() }),
    errors: { '*': fullOrderId },
    onValid: ({ p_order_id }) => {
      if (!busy) assignment.mutate(p_order_id)
    },
    onInvalid: () => toast.error(fullOrderId),
  })
  return (
    <li className="rounded-xl border border-line p-3 text-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-semibold">{token(payment.amount, payment.token)}</span>
        <span className="text-muted">{orderFmt.date(new Date(payment.block_timestamp).toISOString())}</span>
      </div>
      <div className="mt-1 font-mono text-xs break-all text-muted">
        {t('admin.unmatched.tx', { id: payment.tx_id })}
      </div>
      <div className="font-mono text-xs break-all text-muted">
        {t('admin.unmatched.to', { address: payment.to_address })}
      </div>
      {payment.reason && (
        <div className="mt-1 text-xs text-amber-300">
          {payment.reason in reasonIds ? t(reasonIds[payment.reason]) : payment.reason}
          {payment.order_id ? (
            <>
              {' '}
              <Msg
                id="admin.unmatched.order"
                values={{ id: payment.order_id }}
                components={{ 0: <span className="font-mono" /> }}
              />
            </>
          ) : null}
        </div>
      )}
      <form {...form.formProps} className="mt-2 flex flex-col gap-2 sm:flex-row">
        <TextInput
          aria-label={t('admin.unmatched.orderIdFor', { id: payment.id })}
          placeholder={t('admin.unmatched.orderId')}
          {...form.field('p_order_id')}
        />
        <Button type="submit" variant="secondary" disabled={busy}>
          {t('admin.unmatched.assign')}
        </Button>
      </form>
      {form.errors.p_order_id && (
        <p id={form.errorId('p_order_id')} role="alert" className="mt-1.5 text-xs text-red-400">
          {form.errors.p_order_id}
        </p>
      )}
      <ReturnTransfer payment={payment} />
    </li>
  )
}
