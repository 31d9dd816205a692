import { useState } from 'react'
import type { AdminPayment } from '../../../../shared/admin'
import { createReturnInputSchema } from '../../../../shared/refunds'
import { Button } from '../../../components/ui/button'
import { useT } from '../../../i18n/i18n'
import { useSchemaForm } from '../../../lib/form'
import { Field, TextInput } from '../components/fields'
import { useRefunds, useStartReturn } from './api/refunds'
import { RefundCard } from './refund-card'

// An unmatched transfer's return to its sender (an overpayment, a late one, one held for review…):
// its return when one was started, else the button that starts it. Without an address the buyer of
// the order it reached is e-mailed the one-time link.

const formSchema = createReturnInputSchema.pick({ p_address: true })

export function ReturnTransfer({ payment }: { payment: AdminPayment }) {
  const t = useT()
  const refunds = useRefunds()
  const [open, setOpen] = useState(false)
  const start = useStartReturn()
  const [requestKey] = useState(() => crypto.randomUUID())
  const form = useSchemaForm({
    schema: formSchema,
    initial: { p_address: '' },
    toInput: (v) => ({ p_address: v.p_address.trim() || undefined }),
    labels: { p_address: t('admin.refund.knownAddress') },
    onValid: (data) =>
      start.mutate(
        { paymentId: payment.id, address: data.p_address ?? '', requestKey },
        { onSuccess: () => setOpen(false) },
      ),
  })
  const current = refunds.data?.refunds.find((r) => r.payment_id === payment.id && r.status !== 'cancelled')
  if (current) {
    return (
      <ul className="mt-3">
        <RefundCard refund={current} />
      </ul>
    )
  }
  if (!open) {
    return (
      <Button variant="ghost" className="mt-2 px-2 py-1.5 text-xs" onClick={() => setOpen(true)}>
        {t('admin.refund.return')}
      </Button>
    )
  }
  return (
    <form {...form.formProps} className="mt-3 space-y-3 rounded-xl border border-line p-3">
      <h4 className="font-semibold text-fg">{t('admin.refund.returnTitle')}</h4>
      <p className="text-xs break-all text-amber-300">
        {t('admin.refund.suggested', { address: payment.from_address })}
      </p>
      <Field label={t('admin.refund.knownAddress')} error={form.errors.p_address}>
        <TextInput
          className="font-mono"
          value={form.values.p_address}
          onChange={(e) => form.set('p_address', e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={start.isPending}>
          {t('admin.refund.returnSubmit')}
        </Button>
        <Button variant="ghost" onClick={() => setOpen(false)}>
          {t('admin.cancel')}
        </Button>
      </div>
    </form>
  )
}
