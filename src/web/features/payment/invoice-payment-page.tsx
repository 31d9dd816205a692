import { useQueryClient } from '@tanstack/react-query'
import { ArrowLeft, CircleAlert } from 'lucide-react'
import { useEffect } from 'react'
import { useParams } from 'react-router'
import { INVOICE_ID, type InvoiceBack, type InvoicePage, invoicePageKeys } from '../../../shared/invoice-page'
import { buttonStyles } from '../../components/ui/button'
import { useT } from '../../i18n/i18n'
import { inactiveCheckout, networkOfOrder } from '../../lib/checkout-store'
import { useInvoicePage } from './api/get-invoice-page'
import { type ActiveCheckout, PaymentView } from './payment-view'

// The hosted payment page of an invoice (/invoice/{id}, decision 062): the storefront's payment
// view fed with the invoice's order, then the way back to the seller's site.

const BACK_AFTER_PAID_MS = 3_000

const overMessages = {
  unknown: { title: 'invoice.unknown.title', body: 'invoice.unknown.body', alone: 'invoice.unknown.body' },
  expired: {
    title: 'invoice.expired.title',
    body: 'invoice.expired.body',
    alone: 'invoice.expired.bodyNoSeller',
  },
  invalid: {
    title: 'invoice.invalid.title',
    body: 'invoice.invalid.body',
    alone: 'invoice.invalid.bodyNoSeller',
  },
} as const

type FoundPage = Extract<InvoicePage, { found: true }>

function checkoutOf(page: FoundPage): ActiveCheckout {
  const o = page.order
  return {
    ...inactiveCheckout,
    email: o.email,
    startTime: Date.parse(o.created_at),
    isActive: true,
    orderId: o.order_id,
    walletAddress: o.wallet_address,
    windowEndsAt: Date.parse(o.window_ends_at),
    total: o.total,
    trxAmount: o.trx_amount,
    trxRate: o.trx_rate,
    network: networkOfOrder({
      chain: o.chain,
      token: o.token,
      token_decimals: o.token_decimals ?? undefined,
      amount_units: o.amount_units ?? undefined,
      payment_uri: o.payment_uri ?? undefined,
      watched: o.watched ?? undefined,
      confirm_blocks: o.confirm_blocks ?? undefined,
      confirm_seconds: o.confirm_seconds ?? undefined,
    }),
  }
}

function BackToSeller({ back }: { back: InvoiceBack }) {
  const t = useT()
  return (
    <a href={back.url} className={`${buttonStyles.primary} mt-6`} rel="noopener">
      <ArrowLeft className="size-4" aria-hidden /> {t('invoice.back', { seller: back.seller })}
    </a>
  )
}

/** After Payment confirmed: the way back, taken by itself when the seller asked for it. */
function AfterPaid({ back }: { back: InvoiceBack | null }) {
  const t = useT()
  useEffect(() => {
    if (!back?.automatic) return
    const timer = window.setTimeout(() => window.location.assign(back.url), BACK_AFTER_PAID_MS)
    return () => window.clearTimeout(timer)
  }, [back])
  if (!back) return null
  return (
    <>
      {back.automatic && (
        <p className="mt-4 text-sm text-muted" role="status">
          {t('invoice.backing', { seller: back.seller })}
        </p>
      )}
      <BackToSeller back={back} />
    </>
  )
}

/** An invoice that cannot be paid here: unknown, expired or invalid, said in words. */
function InvoiceOver({ kind, back }: { kind: 'unknown' | 'expired' | 'invalid'; back: InvoiceBack | null }) {
  const t = useT()
  return (
    <div className="mx-auto max-w-xl px-4 py-12 sm:px-6 sm:py-16">
      <section
        aria-labelledby="invoice-over-title"
        className="flex flex-col items-center rounded-2xl border border-line bg-card p-6 text-center sm:p-10"
      >
        <div className="grid size-16 place-items-center rounded-full bg-amber-500/15">
          <CircleAlert className="size-9 text-amber-400" aria-hidden />
        </div>
        <h1 id="invoice-over-title" className="mt-4 text-2xl font-bold text-fg">
          {t(overMessages[kind].title)}
        </h1>
        <p className="mt-2 text-muted">
          {back ? t(overMessages[kind].body, { seller: back.seller }) : t(overMessages[kind].alone)}
        </p>
        {back && <BackToSeller back={back} />}
      </section>
    </div>
  )
}

export function InvoicePaymentPage() {
  const id = useParams()['*'] ?? ''
  const valid = INVOICE_ID.test(id)
  const client = useQueryClient()
  const page = useInvoicePage(valid ? id : '')
  if (!valid) return <InvoiceOver kind="unknown" back={null} />
  const data = page.data
  if (!data) return page.isError ? <InvoiceOver kind="unknown" back={null} /> : null
  if (!data.found) return <InvoiceOver kind="unknown" back={null} />
  if (data.state === 'expired' || data.state === 'invalid')
    return <InvoiceOver kind={data.state} back={data.back} />
  return (
    <PaymentView
      key={data.order.order_id}
      state={checkoutOf(data)}
      invoiceId={data.id}
      item={data.item}
      initiallyPaid={data.state === 'paid'}
      onPaid={() => {}}
      // The order ended unpaid: the invoice says how (expired or invalid).
      onCancelled={() => void client.invalidateQueries({ queryKey: invoicePageKeys.one(data.id) })}
      afterPaid={<AfterPaid back={data.back} />}
    />
  )
}
