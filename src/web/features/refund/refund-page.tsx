import { useMutation, useQuery } from '@tanstack/react-query'
import { AlertTriangle, CheckCircle2, Clock, Link2Off, Network, Undo2 } from 'lucide-react'
import { useState } from 'react'
import { useParams } from 'react-router'
import * as z from 'zod'
import { type ChainFamilyId, type ChainId, familyOfChain, firstChain } from '../../../shared/chains'
import { chainOfNetwork, networkWithStandard } from '../../../shared/networks'
import {
  type BuyerRefund,
  badAddressFor,
  mayBecomeAddressFor,
  openRefundAnswerSchema,
  refundAddressFor,
} from '../../../shared/refunds'
import { Button } from '../../components/ui/button'
import { type MessageId, useFormat, useT } from '../../i18n/i18n'
import { useSchemaForm } from '../../lib/form'
import { callRpc, RpcError } from '../../lib/rpc-client'

// The page a refund e-mail's one-time link opens: the buyer names the address to be paid on, on the
// network they paid on, sees it again to confirm, and sends it; the link is spent then. The payer's own sending address is
// offered as a suggestion only, with a warning about exchange deposit addresses.

/** The field's one rule in the page's language, per family (the server's words: shared/address-forms.ts). */
const refusals: Record<ChainFamilyId, MessageId> = {
  tron: 'refundPage.badAddress',
  evm: 'refundPage.badEvmAddress',
  solana: 'refundPage.badSolanaAddress',
}
export function RefundPage() {
  const { token = '' } = useParams()
  const t = useT()
  const opened = useQuery({
    queryKey: ['refund-link', token],
    queryFn: async () =>
      openRefundAnswerSchema.parse(await callRpc('secure_open_refund', { p_token: token.slice(0, 200) })),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    retry: false,
  })
  if (opened.isPending) {
    return (
      <p role="status" className="py-32 text-center text-muted">
        {t('common.loading')}
      </p>
    )
  }
  if (!opened.data?.success) {
    return (
      <Centered
        icon={<Link2Off className="size-7 text-muted" aria-hidden />}
        title={t('refundPage.invalidTitle')}
      >
        {opened.data?.error ?? t('refundPage.failed')}
      </Centered>
    )
  }
  return <AddressForm token={token} refund={opened.data.refund} />
}

function Centered({
  icon,
  title,
  children,
}: {
  icon: React.ReactNode
  title: string
  children: React.ReactNode
}) {
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center sm:py-24">
      <div className="mx-auto grid size-14 place-items-center rounded-2xl border border-line bg-card">
        {icon}
      </div>
      <h1 className="mt-6 text-2xl font-bold tracking-tight text-fg">{title}</h1>
      <p className="mt-3 text-sm leading-relaxed break-words text-muted">{children}</p>
    </div>
  )
}

/** The field's one rule: an address of the refund's own network, as the server checks it. */
const addressFormSchema = (chain: ChainId) =>
  z.object({
    p_address: z
      .string()
      .trim()
      .max(100)
      .refine((text) => refundAddressFor(chain, text) !== null, badAddressFor(chain)),
  })

function AddressForm({ token, refund }: { token: string; refund: BuyerRefund }) {
  const t = useT()
  const { token: tokenAmount, dateTime } = useFormat()
  const amount = tokenAmount(refund.amount, refund.token)
  // One name for the network, as the operator's card writes it: "BNB Smart Chain (BEP-20)".
  const network = networkWithStandard(refund.network, refund.token)
  const chain = chainOfNetwork(refund.network) ?? firstChain
  const [confirming, setConfirming] = useState<string | null>(null)
  const submit = useMutation({
    mutationFn: async (address: string) => {
      const answer = openRefundAnswerSchema.parse(
        await callRpc('secure_submit_refund_address', {
          p_token: token,
          p_address: address,
          p_network: refund.network,
        }),
      )
      if (!answer.success) throw new Error(answer.error)
      return answer.refund
    },
  })
  const form = useSchemaForm({
    schema: addressFormSchema(chain),
    initial: { p_address: '' },
    // The one rule of the field, in the page's language and in the server's words for it.
    errors: {
      '*': t(refusals[familyOfChain[chain]]),
    },
    onValid: ({ p_address }) => setConfirming(p_address),
  })
  // Checked as it is typed: once the text can no longer become an address of this network (a TRON
  // address on a BNB Smart Chain refund, or one of full length), the field says so.
  const typeAddress = (text: string) => {
    form.set('p_address', text)
    if (!mayBecomeAddressFor(chain, text)) form.checkField('p_address')
  }

  if (submit.isSuccess) {
    return (
      <Centered
        icon={<CheckCircle2 className="size-7 text-emerald-400" aria-hidden />}
        title={t('refundPage.doneTitle')}
      >
        {t('refundPage.done', { amount, address: submit.data.address ?? '' })}
      </Centered>
    )
  }
  const failure =
    submit.error instanceof RpcError || submit.error instanceof Error
      ? submit.error.message || t('refundPage.failed')
      : null

  return (
    <div className="mx-auto max-w-xl px-4 py-10 sm:px-6 sm:py-14">
      <div className="flex items-center gap-3">
        <div className="grid size-11 shrink-0 place-items-center rounded-xl border border-line bg-card">
          <Undo2 className="size-5 text-primary" aria-hidden />
        </div>
        <h1 className="text-2xl font-bold tracking-tight text-fg sm:text-3xl">{t('refundPage.title')}</h1>
      </div>
      <p className="mt-4 text-sm leading-relaxed text-muted">
        {refund.order_ref
          ? t('refundPage.intro', { amount, order: refund.order_ref, network })
          : t('refundPage.introReturn', { amount, network })}
      </p>
      <dl className="mt-6 grid gap-3 rounded-2xl border border-line bg-card/60 p-4 text-sm sm:grid-cols-2 sm:p-5">
        <div className="flex items-start gap-2.5">
          <Network className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
          <div>
            <dt className="text-xs text-muted">{t('refundPage.network')}</dt>
            <dd className="font-medium text-fg" data-testid="refund-network">
              {network}
            </dd>
          </div>
        </div>
        {refund.link_expires_at && confirming === null && (
          <div className="flex items-start gap-2.5">
            <Clock className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
            <div>
              <dt className="text-xs text-muted">{t('refundPage.linkUntil')}</dt>
              <dd className="font-medium text-fg" data-testid="refund-link-until">
                {dateTime(refund.link_expires_at)}
              </dd>
            </div>
          </div>
        )}
      </dl>

      {confirming === null ? (
        <form
          {...form.formProps}
          className="mt-8 space-y-5 rounded-2xl border border-line bg-card p-5 sm:p-6"
        >
          <div className="flex flex-col gap-1.5">
            <label htmlFor="refund-address" className="text-sm font-medium text-fg">
              {t('refundPage.address', { network: refund.network })}
            </label>
            <input
              id="refund-address"
              value={form.values.p_address}
              onChange={(e) => typeAddress(e.target.value)}
              onBlur={() => {
                if (form.values.p_address.trim() !== '') form.checkField('p_address')
              }}
              autoComplete="off"
              spellCheck={false}
              className="w-full rounded-xl border border-line bg-background px-3.5 py-2.5 font-mono text-sm text-fg focus:border-primary focus:outline-none aria-[invalid]:border-red-500"
              {...form.control('p_address')}
            />
            {form.errors.p_address && (
              <span id={form.errorId('p_address')} role="alert" className="text-xs text-red-400">
                {form.errors.p_address}
              </span>
            )}
          </div>
          {refund.suggested_address && (
            <div className="rounded-xl border border-amber-500/30 bg-amber-500/5 p-4 text-sm">
              <p className="break-all text-fg">
                {t('refundPage.suggestion', { address: refund.suggested_address })}
              </p>
              <p className="mt-2 flex gap-2 text-xs leading-relaxed text-amber-300">
                <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
                {t('refundPage.exchangeWarning')}
              </p>
              <Button
                variant="secondary"
                className="mt-3 px-3 py-1.5 text-xs"
                onClick={() => typeAddress(refund.suggested_address ?? '')}
              >
                {t('refundPage.useSuggestion')}
              </Button>
            </div>
          )}
          <Button type="submit" className="w-full sm:w-auto">
            {t('refundPage.continue')}
          </Button>
        </form>
      ) : (
        <section
          aria-labelledby="refund-confirm"
          className="mt-8 space-y-4 rounded-2xl border border-line bg-card p-5 sm:p-6"
        >
          <h2 id="refund-confirm" className="text-lg font-semibold text-fg">
            {t('refundPage.confirmTitle')}
          </h2>
          <p className="text-sm text-muted">{t('refundPage.confirmText', { amount, network })}</p>
          <p
            className="rounded-xl border border-line bg-background px-3.5 py-3 font-mono text-base break-all text-fg"
            data-testid="refund-confirm-address"
          >
            {confirming}
          </p>
          <p className="flex gap-2 text-xs text-amber-300">
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
            {t('refundPage.confirmWarning')}
          </p>
          {failure && (
            <p role="alert" className="text-sm text-red-400">
              {failure}
            </p>
          )}
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button onClick={() => submit.mutate(confirming)} disabled={submit.isPending}>
              {t('refundPage.confirm')}
            </Button>
            <Button variant="secondary" onClick={() => setConfirming(null)} disabled={submit.isPending}>
              {t('refundPage.back')}
            </Button>
          </div>
        </section>
      )}
    </div>
  )
}
