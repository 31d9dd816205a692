import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { type RefundableAnswer, refundFormSchema } from '../../../../shared/refunds'
import { Button } from '../../../components/ui/button'
import { useFormat, useT } from '../../../i18n/i18n'
import { useSchemaForm } from '../../../lib/form'
import { Field, inputClass, TextInput } from '../components/fields'
import { orderKeys } from '../orders/api/orders'
import { useRefundable, useRefunds, useStartRefund } from './api/refunds'
import { RefundCard } from './refund-card'

// The order detail's refunds: each refund of the order, and the form that starts one (everything
// left in a token, or a part; a reason; whether a full refund disables the keys; an address the
// buyer already gave, else the buyer is e-mailed a one-time link).

export function OrderRefunds({ orderId }: { orderId: string }) {
  const t = useT()
  const refunds = useRefunds(orderId)
  const refundable = useRefundable(orderId)
  const [starting, setStarting] = useState(false)
  const list = refunds.data?.refunds ?? []
  const left = refundable.data
  // The shop's watch marks a refund sent by itself: the order (its status) is read again then.
  const queryClient = useQueryClient()
  const sent = list.filter((r) => r.status === 'sent').length
  useEffect(() => {
    if (sent > 0) void queryClient.invalidateQueries({ queryKey: orderKeys.all })
  }, [sent, queryClient])
  const canRefund = left?.paid === true && (left.usdt !== '0.00' || left.trx !== '0.00')
  return (
    <section aria-labelledby={`refunds-${orderId}`}>
      <div className="mt-6 flex flex-wrap items-center justify-between gap-2">
        <h3 id={`refunds-${orderId}`} className="font-semibold text-fg">
          {t('admin.refund.title')}
        </h3>
        {canRefund && !starting && (
          <Button variant="secondary" className="px-3 py-1.5" onClick={() => setStarting(true)}>
            {t('admin.refund.start')}
          </Button>
        )}
      </div>
      {starting && left && <RefundForm orderId={orderId} left={left} onDone={() => setStarting(false)} />}
      {list.length === 0 ? (
        !starting && <p className="mt-1 text-sm text-muted">{t('admin.refund.none')}</p>
      ) : (
        <ul className="mt-2 space-y-3">
          {list.map((r) => (
            <RefundCard key={r.id} refund={r} />
          ))}
        </ul>
      )}
    </section>
  )
}

const formSchema = refundFormSchema

function RefundForm({
  orderId,
  left,
  onDone,
}: {
  orderId: string
  left: RefundableAnswer
  onDone: () => void
}) {
  const t = useT()
  const { token } = useFormat()
  const start = useStartRefund()
  // One key per form: a second click of the same form finds the refund the first one started.
  const [requestKey] = useState(() => crypto.randomUUID())
  // And one request at a time: clicks before the button shows it is busy send nothing more.
  const sending = useRef(false)
  // The stablecoin is the one the buyer paid with (USDC on Base pays a USDT order too).
  const stable = left.stable_token
  const firstToken: 'USDT' | 'USDC' | 'TRX' = left.usdt !== '0.00' ? stable : 'TRX'
  const form = useSchemaForm({
    schema: formSchema,
    initial: {
      p_token: firstToken,
      p_full: true,
      p_amount: '',
      p_reason: '',
      p_disable_keys: true,
      p_address: '',
    },
    toInput: (v) => ({
      ...v,
      p_amount: v.p_full ? undefined : v.p_amount,
      p_address: v.p_address.trim() || undefined,
    }),
    labels: {
      p_amount: t('admin.refund.amount'),
      p_reason: t('admin.refund.reason'),
      p_address: t('admin.refund.knownAddress'),
    },
    onValid: (data) => {
      if (sending.current) return
      sending.current = true
      start.mutate(
        {
          orderId,
          token: data.p_token,
          full: data.p_full,
          amount: data.p_amount ?? '',
          reason: data.p_reason,
          disableKeys: data.p_disable_keys,
          address: data.p_address ?? '',
          requestKey,
        },
        {
          onSuccess: onDone,
          onSettled: () => {
            sending.current = false
          },
        },
      )
    },
  })
  const v = form.values
  return (
    <form {...form.formProps} className="mt-3 space-y-3 rounded-xl border border-line p-3 sm:p-4">
      <h4 className="font-semibold text-fg">{t('admin.refund.formTitle')}</h4>
      <p className="text-xs text-muted">
        {t('admin.refund.left', { usdt: token(left.usdt, stable), trx: token(left.trx, 'TRX') })}
      </p>
      <Field label={t('admin.refund.token')}>
        <select
          className={inputClass}
          value={v.p_token}
          onChange={(e) => form.set('p_token', e.target.value as typeof firstToken)}
        >
          {[stable, 'TRX' as const]
            .filter((k) => (k === 'TRX' ? left.trx : left.usdt) !== '0.00')
            .map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
        </select>
      </Field>
      <fieldset className="flex flex-wrap gap-4 text-sm text-fg">
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="refund-size"
            checked={v.p_full}
            onChange={() => form.set('p_full', true)}
          />
          {t('admin.refund.full')} ({token(v.p_token === 'TRX' ? left.trx : left.usdt, v.p_token)})
        </label>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="refund-size"
            checked={!v.p_full}
            onChange={() => form.set('p_full', false)}
          />
          {t('admin.refund.partial')}
        </label>
      </fieldset>
      {!v.p_full && (
        <Field label={`${t('admin.refund.amount')} (${v.p_token})`} error={form.errors.p_amount}>
          <TextInput
            inputMode="decimal"
            value={v.p_amount}
            onChange={(e) => form.set('p_amount', e.target.value)}
          />
        </Field>
      )}
      <Field label={t('admin.refund.reason')} error={form.errors.p_reason}>
        <TextInput
          value={v.p_reason}
          onChange={(e) => form.set('p_reason', e.target.value)}
          maxLength={500}
        />
      </Field>
      <label className="flex items-start gap-2 text-sm text-fg">
        <input
          type="checkbox"
          className="mt-0.5"
          checked={v.p_disable_keys}
          onChange={(e) => form.set('p_disable_keys', e.target.checked)}
        />
        {t('admin.refund.disableKeys')}
      </label>
      <Field label={t('admin.refund.knownAddress')} error={form.errors.p_address}>
        <TextInput
          className="font-mono"
          value={v.p_address}
          onChange={(e) => form.set('p_address', e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={start.isPending}>
          {t('admin.refund.submit')}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          {t('admin.cancel')}
        </Button>
      </div>
    </form>
  )
}
