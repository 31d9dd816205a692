import { QRCodeSVG } from 'qrcode.react'
import { useState } from 'react'
import { networkWithStandard } from '../../../../shared/networks'
import {
  type AdminRefund,
  setRefundAddressInputSchema,
  verifyRefundInputSchema,
} from '../../../../shared/refunds'
import { Button } from '../../../components/ui/button'
import { CopyField } from '../../../components/ui/copy-field'
import { Msg, useFormat, useT } from '../../../i18n/i18n'
import { useSchemaForm } from '../../../lib/form'
import { ConfirmDialog } from '../components/confirm-dialog'
import { Field, TextInput } from '../components/fields'
import { useOrderFormat } from '../lib/orders-format'
import { useCancelRefund, useResendRefundLink, useSetRefundAddress, useVerifyRefund } from './api/refunds'

// One refund or return as the operator works it: waiting for the buyer's address (or one the
// operator enters), ready to be paid from the operator's own wallet (amount, token, network and
// address as text and QR), proven sent with its transaction, or cancelled.

const stateTone: Record<AdminRefund['status'], string> = {
  awaiting_address: 'bg-amber-500/15 text-amber-300',
  ready: 'bg-sky-500/15 text-sky-300',
  sent: 'bg-emerald-500/15 text-emerald-300',
  cancelled: 'bg-white/10 text-muted',
}

export function RefundCard({ refund }: { refund: AdminRefund }) {
  const t = useT()
  const { token } = useFormat()
  const orderFmt = useOrderFormat()
  const cancel = useCancelRefund()
  const [confirmCancel, setConfirmCancel] = useState(false)
  const open = refund.status === 'awaiting_address' || refund.status === 'ready'
  return (
    <li className="rounded-xl border border-line p-3 text-sm sm:p-4" data-testid={`refund-${refund.id}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-semibold text-fg">
          {t(refund.kind === 'refund' ? 'admin.refund.kind.refund' : 'admin.refund.kind.return')}:{' '}
          {token(refund.amount, refund.token)} · {refund.network}
        </span>
        <span className={`rounded-md px-2 py-0.5 text-xs font-semibold ${stateTone[refund.status]}`}>
          {t(`admin.refund.state.${refund.status}`)}
        </span>
      </div>
      <p className="mt-1 text-xs break-words text-muted">
        {t('admin.refund.reasonLine', { reason: refund.reason })}
      </p>
      {refund.status === 'awaiting_address' && <AwaitingAddress refund={refund} />}
      {refund.status === 'ready' && refund.address && (
        <PayFromWallet refund={refund} address={refund.address} />
      )}
      {refund.status === 'sent' && refund.tx_id && (
        <p className="mt-2 text-xs break-all text-emerald-300">
          {t('admin.refund.sentLine', {
            date: refund.sent_at ? orderFmt.date(refund.sent_at) : '',
            how: t(refund.verified_by === 'watch' ? 'admin.refund.by.watch' : 'admin.refund.by.hash'),
          })}{' '}
          <a href={refund.tx_url ?? '#'} target="_blank" rel="noreferrer" className="font-mono underline">
            {refund.tx_id}
          </a>
        </p>
      )}
      {refund.address && refund.status === 'sent' && (
        <p className="mt-1 font-mono text-xs break-all text-muted">{refund.address}</p>
      )}
      {open && (
        <Button
          variant="ghost"
          className="mt-3 px-2 py-1.5 text-xs"
          disabled={cancel.isPending}
          onClick={() => setConfirmCancel(true)}
        >
          {t('admin.refund.cancel')}
        </Button>
      )}
      <ConfirmDialog
        open={confirmCancel}
        title={t('admin.refund.cancelTitle')}
        message={t('admin.refund.cancelConfirm', {
          amount: token(refund.amount, refund.token),
          network: refund.network,
        })}
        confirmLabel={t('admin.refund.cancel')}
        keepLabel={t('admin.refund.keep')}
        busy={cancel.isPending}
        onConfirm={() => cancel.mutate(refund.id, { onSettled: () => setConfirmCancel(false) })}
        onClose={() => setConfirmCancel(false)}
      />
    </li>
  )
}

const addressFormSchema = setRefundAddressInputSchema.pick({ p_address: true })

function AwaitingAddress({ refund }: { refund: AdminRefund }) {
  const t = useT()
  const orderFmt = useOrderFormat()
  const setAddress = useSetRefundAddress()
  const resend = useResendRefundLink()
  const [refusal, setRefusal] = useState<string | null>(null)
  const form = useSchemaForm({
    schema: addressFormSchema,
    initial: { p_address: '' },
    labels: { p_address: t('admin.refund.enterAddress') },
    onValid: ({ p_address }) => {
      setRefusal(null)
      setAddress.mutate(
        { id: refund.id, address: p_address },
        { onError: (error) => setRefusal(error.message || t('admin.requestFailed')) },
      )
    },
  })
  return (
    <div className="mt-3 space-y-3">
      {refund.email && refund.link_expires_at && (
        <p className="text-xs text-muted">
          <Msg
            id="admin.refund.linkSent"
            values={{ email: refund.email, date: orderFmt.date(refund.link_expires_at) }}
          />
        </p>
      )}
      {refund.suggested_address && (
        <p className="text-xs break-all text-amber-300">
          {t('admin.refund.suggested', { address: refund.suggested_address })}
        </p>
      )}
      <form {...form.formProps} className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <Field label={t('admin.refund.enterAddress')} error={form.errors.p_address ?? refusal ?? undefined}>
            <TextInput
              className="font-mono"
              value={form.values.p_address}
              onChange={(e) => form.set('p_address', e.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
          </Field>
        </div>
        <Button type="submit" variant="secondary" disabled={setAddress.isPending}>
          {t('admin.refund.saveAddress')}
        </Button>
      </form>
      {refund.email && (
        <Button
          variant="ghost"
          className="px-2 py-1.5 text-xs"
          disabled={resend.isPending}
          onClick={() => resend.mutate(refund.id)}
        >
          {t('admin.refund.resendLink')}
        </Button>
      )}
    </div>
  )
}

const hashFormSchema = verifyRefundInputSchema.pick({ p_transaction_hash: true })

function PayFromWallet({ refund, address }: { refund: AdminRefund; address: string }) {
  const t = useT()
  const verify = useVerifyRefund()
  const [refusal, setRefusal] = useState<string | null>(null)
  const form = useSchemaForm({
    schema: hashFormSchema,
    initial: { p_transaction_hash: '' },
    labels: { p_transaction_hash: t('admin.refund.hash') },
    onValid: ({ p_transaction_hash }) => {
      setRefusal(null)
      verify.mutate(
        { id: refund.id, hash: p_transaction_hash },
        { onError: (error) => setRefusal(error.message || t('admin.requestFailed')) },
      )
    },
  })
  return (
    <div className="mt-3 rounded-xl border border-sky-500/30 bg-sky-500/5 p-3 sm:p-4">
      <h4 className="font-semibold text-fg">{t('admin.refund.payTitle')}</h4>
      <p className="mt-1 text-xs text-muted">
        {t('admin.refund.payHint', { token: refund.token, network: refund.network })}
      </p>
      <div className="mt-3 flex flex-col gap-4 sm:flex-row sm:items-start">
        {/* The payment URI with the token and amount where the chain has one (EIP-681), else the address. */}
        <div
          className="self-center rounded-xl bg-white p-2 sm:self-start"
          role="img"
          aria-label={
            refund.payment_uri && refund.payment_uri !== address
              ? t('admin.refund.qrPayment', {
                  amount: `${refund.amount} ${refund.token}`,
                  uri: refund.payment_uri,
                })
              : t('admin.refund.qrTitle')
          }
        >
          <QRCodeSVG value={refund.payment_uri ?? address} size={144} level="M" />
        </div>
        <dl className="grid min-w-0 flex-1 gap-3">
          <div>
            <dt className="text-xs font-medium text-muted">{t('admin.refund.amount')}</dt>
            <dd className="font-mono text-lg font-semibold text-fg" data-testid="refund-amount">
              {refund.amount} {refund.token}
            </dd>
          </div>
          <div>
            <dt className="text-xs font-medium text-muted">{t('admin.refund.network')}</dt>
            <dd className="text-sm text-fg" data-testid="refund-network">
              {networkWithStandard(refund.network, refund.token)}
            </dd>
          </div>
          <CopyField
            label={t('admin.refund.address')}
            value={address}
            copiedMessage={t('admin.refund.copied')}
            failedMessage={t('admin.refund.copyFailed')}
          />
        </dl>
      </div>
      <form {...form.formProps} className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <Field
            label={t('admin.refund.hash')}
            error={form.errors.p_transaction_hash ?? refusal ?? undefined}
          >
            <TextInput
              className="font-mono"
              value={form.values.p_transaction_hash}
              onChange={(e) => form.set('p_transaction_hash', e.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
          </Field>
        </div>
        <Button type="submit" variant="secondary" disabled={verify.isPending}>
          {t('admin.refund.check')}
        </Button>
      </form>
    </div>
  )
}
