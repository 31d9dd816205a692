import {
  CheckCircle2,
  Clock,
  Download,
  ExternalLink,
  KeyRound,
  Link2Off,
  Loader2,
  Lock,
  Mail,
} from 'lucide-react'
import { useEffect } from 'react'
import { Link, useParams } from 'react-router'
import { firstChain } from '../../../shared/chains'
import type { DashboardOrder } from '../../../shared/dashboard'
import { chainNames } from '../../../shared/networks'
import { isPaidStatus } from '../../../shared/order-status'
import type { DashboardRefund } from '../../../shared/refunds'
import { EmailMyOrders } from '../../components/order-links/email-my-orders'
import { buttonStyles } from '../../components/ui/button'
import { CopyField } from '../../components/ui/copy-field'
import { EmailAddress } from '../../components/ui/email-address'
import { type Formatters, type MessageId, Msg, type Translate, useFormat, useT } from '../../i18n/i18n'
import { useSiteContent } from '../../lib/api/get-site-content'
import { cart } from '../../lib/cart-store'
import { checkout } from '../../lib/checkout-store'
import { useDashboard } from './api/get-dashboard'
import { DashboardRefunds } from './dashboard-refunds'
import { LicenceSeats } from './licence-seats'

function formatDate(iso: string | null, t: Translate, format: Formatters): string {
  if (!iso) return '—'
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? t('dashboard.invalidDate') : format.dateTime(date)
}

const statusStyles: Record<DashboardOrder['status'], { label: MessageId; className: string }> = {
  paid: {
    label: 'dashboard.status.paid',
    className: 'border-emerald-400/30 bg-emerald-400/10 text-emerald-300',
  },
  completed: {
    label: 'dashboard.status.completed',
    className: 'border-emerald-400/30 bg-emerald-400/10 text-emerald-300',
  },
  refunded: {
    label: 'dashboard.status.refunded',
    className: 'border-violet-400/30 bg-violet-400/10 text-violet-300',
  },
  partially_refunded: {
    label: 'dashboard.status.partially_refunded',
    className: 'border-violet-400/30 bg-violet-400/10 text-violet-300',
  },
  pending: {
    label: 'dashboard.status.pending',
    className: 'border-amber-400/30 bg-amber-400/10 text-amber-300',
  },
  cancelled: {
    label: 'dashboard.status.cancelled',
    className: 'border-red-400/30 bg-red-400/10 text-red-300',
  },
}

function SupportCard() {
  const t = useT()
  const { content } = useSiteContent()
  const support = content.support
  return (
    <section aria-labelledby="support-title" className="rounded-2xl border border-line bg-card p-5 sm:p-6">
      <h2 id="support-title" className="text-base font-semibold text-fg">
        {t('dashboard.help')}
      </h2>
      <p className="mt-1 text-sm text-muted">{support.subtitle}</p>
      {support.email && (
        <a
          href={`mailto:${support.email}`}
          className="mt-4 inline-flex items-center gap-2 text-sm font-medium text-primary hover:underline"
        >
          <Mail className="size-4 shrink-0" aria-hidden />
          <EmailAddress email={support.email} className="min-w-0" />
        </a>
      )}
      {support.response && (
        <p className="mt-2 flex items-center gap-2 text-xs text-muted">
          <Clock className="size-3.5" aria-hidden />
          {support.response}
        </p>
      )}
    </section>
  )
}

function NotFound({ message, limited }: { message: string; limited: boolean }) {
  const t = useT()
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center sm:py-24">
      <div className="mx-auto grid size-14 place-items-center rounded-2xl border border-line bg-card">
        <Link2Off className="size-7 text-muted" aria-hidden />
      </div>
      <h1 className="mt-6 text-2xl font-bold tracking-tight text-fg">
        {limited ? t('dashboard.wait') : t('dashboard.notFound')}
      </h1>
      <p className="mt-3 text-sm leading-relaxed text-muted">
        {limited ? message : t('dashboard.notFoundText')}
      </p>
      <Link to="/" className={`${buttonStyles.primary} mt-8 inline-flex`}>
        {t('dashboard.back')}
      </Link>
      <div className="mt-10 space-y-6 text-left">
        <EmailMyOrders />
        <SupportCard />
      </div>
    </div>
  )
}

function Item({
  item,
  token,
  refund,
}: {
  item: DashboardOrder['items'][number]
  token: string
  /** The order's sent refund that disabled its keys, if any. */
  refund?: DashboardRefund
}) {
  const t = useT()
  const { usd } = useFormat()
  return (
    <li className="rounded-2xl border border-line bg-card p-5 sm:p-6">
      <div className="flex items-start gap-4">
        {item.image && (
          <img
            src={item.image}
            alt=""
            className="size-14 shrink-0 rounded-xl border border-line object-cover"
          />
        )}
        <div className="min-w-0 flex-1">
          <h3 className="text-base font-semibold text-fg">{item.name}</h3>
          <p className="mt-0.5 text-sm text-muted">
            {item.quantity} × {usd(item.price)}
          </p>
        </div>
        {item.download_url && (
          <a
            href={item.download_url}
            target="_blank"
            rel="noopener noreferrer"
            className={`${buttonStyles.secondary} shrink-0`}
          >
            <Download className="size-4" aria-hidden />
            <span className="hidden sm:inline">{t('product.download')}</span>
            <span className="sr-only sm:hidden">{t('dashboard.downloadItem', { name: item.name })}</span>
          </a>
        )}
      </div>
      {item.keys.length > 0 && (
        <div className="mt-5 space-y-3">
          {item.keys.map((key, index) => {
            const label =
              item.keys.length > 1
                ? t('dashboard.keyNumbered', { name: item.name, number: index + 1 })
                : t('dashboard.key', { name: item.name })
            const licence = item.licences.find((l) => l.key === key)
            return (
              <div key={key} className="space-y-2">
                <CopyField
                  label={label}
                  value={key}
                  copiedMessage={t('dashboard.keyCopied')}
                  failedMessage={t('dashboard.keyCopyFailed')}
                />
                {licence && <LicenceSeats licence={licence} token={token} name={label} refund={refund} />}
              </div>
            )
          })}
        </div>
      )}
    </li>
  )
}

export function DashboardPage() {
  const t = useT()
  const format = useFormat()
  const { token = '' } = useParams()
  const query = useDashboard(token)
  const found = query.data?.kind === 'found' ? query.data.order : null

  // Reached straight from the payment page (before its 3 s redirect): the purchase is done.
  useEffect(() => {
    if (!found || !isPaidStatus(found.status)) return
    if (checkout.get().orderId === found.id) {
      cart.clear()
      checkout.reset()
    }
  }, [found])

  if (query.isLoading) {
    return (
      <div className="grid min-h-[50vh] place-items-center px-4" role="status">
        <p className="flex items-center gap-3 text-sm text-muted">
          <Loader2 className="size-5 animate-spin" aria-hidden />
          {t('dashboard.loading')}
        </p>
      </div>
    )
  }
  if (query.isError || !query.data) {
    return (
      <div className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 className="text-2xl font-bold text-fg">{t('dashboard.loadFailed')}</h1>
        <p className="mt-3 text-sm text-muted">{t('dashboard.loadFailedText')}</p>
        <button type="button" onClick={() => query.refetch()} className={`${buttonStyles.primary} mt-6`}>
          {t('dashboard.retry')}
        </button>
      </div>
    )
  }
  const result = query.data
  if (result.kind !== 'found')
    return <NotFound message={result.message} limited={result.kind === 'limited'} />

  const order = result.order
  const status = statusStyles[order.status]
  const keyCount = order.items.reduce((n, item) => n + item.keys.length, 0)
  // The refund that disabled the keys (the last one sent that was to): a disabled licence names it.
  const keysRefund = order.refunds.findLast((r) => r.status === 'sent' && r.disable_keys)

  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6 sm:py-10">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-fg sm:text-3xl">{t('dashboard.title')}</h1>
          <p className="mt-1 break-all text-sm text-muted">
            <Msg
              id="dashboard.order"
              values={{ id: order.id, date: formatDate(order.created_at, t, format) }}
              components={{ 0: <span className="font-mono" /> }}
            />
          </p>
        </div>
        <span
          className={`inline-flex items-center gap-1.5 rounded-full border px-3 py-1 text-sm font-medium ${status.className}`}
        >
          {isPaidStatus(order.status) ? <CheckCircle2 className="size-4" aria-hidden /> : null}
          {t(status.label)}
        </span>
      </div>

      <p className="mt-6 flex items-start gap-3 rounded-xl border border-line bg-white/[0.03] p-4 text-sm text-muted">
        <Lock className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
        {t('dashboard.bookmark')}
      </p>

      <div className="mt-8 grid grid-cols-1 gap-6 lg:grid-cols-[1.6fr_1fr]">
        <section aria-labelledby="items-title">
          <h2 id="items-title" className="flex items-center gap-2 text-lg font-semibold text-fg">
            <KeyRound className="size-5 text-primary" aria-hidden />
            {t('dashboard.keys', { count: keyCount })}
          </h2>
          <ul className="mt-4 space-y-4">
            {order.items.map((item) => (
              <Item key={item.product_id} item={item} token={token} refund={keysRefund} />
            ))}
          </ul>
        </section>

        <div className="space-y-6">
          <section
            aria-labelledby="receipt-title"
            className="rounded-2xl border border-line bg-card p-5 sm:p-6"
          >
            <h2 id="receipt-title" className="text-base font-semibold text-fg">
              {t('dashboard.receipt')}
            </h2>
            <dl className="mt-4 space-y-3 text-sm">
              {order.discount_code && (
                <>
                  <div className="flex justify-between gap-4">
                    <dt className="text-muted">{t('order.subtotal')}</dt>
                    <dd className="text-fg tabular-nums">{format.usd(order.total + order.discount)}</dd>
                  </div>
                  <div className="flex justify-between gap-4">
                    <dt className="text-muted">
                      {t('order.discount')} <span className="font-mono text-xs">{order.discount_code}</span>
                    </dt>
                    <dd className="text-emerald-400 tabular-nums">−{format.usd(order.discount)}</dd>
                  </div>
                </>
              )}
              <div className="flex justify-between gap-4">
                <dt className="text-muted">{t('order.total')}</dt>
                <dd className="font-semibold text-fg tabular-nums">{format.usd(order.total)}</dd>
              </div>
              <div className="flex justify-between gap-4">
                <dt className="text-muted">{t('dashboard.received')}</dt>
                <dd className="text-fg tabular-nums">{format.usd(order.amount_received)}</dd>
              </div>
              <div className="flex justify-between gap-4">
                <dt className="text-muted">{t('dashboard.paidOn')}</dt>
                <dd className="text-right text-fg">
                  {formatDate(order.paid_at, t, format)}
                  {order.late ? (
                    <span className="block text-xs text-amber-300">{t('dashboard.late')}</span>
                  ) : null}
                </dd>
              </div>
              <div className="flex justify-between gap-4">
                <dt className="shrink-0 text-muted">{t('dashboard.email')}</dt>
                <dd className="min-w-0 text-right text-fg">
                  <EmailAddress email={order.email} />
                </dd>
              </div>
              {(order.tx_chain ?? order.chain) !== firstChain && (
                <div className="flex justify-between gap-4">
                  <dt className="text-muted">{t('dashboard.network')}</dt>
                  <dd className="text-right text-fg" data-testid="dashboard-network">
                    {order.tx_token ?? order.token} · {chainNames[order.tx_chain ?? order.chain]}
                  </dd>
                </div>
              )}
              {order.tx_hash && order.tx_url && (
                <div>
                  <dt className="text-muted">{t('dashboard.transaction')}</dt>
                  <dd className="mt-1">
                    <a
                      href={order.tx_url}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="inline-flex max-w-full items-center gap-1.5 font-mono text-xs text-primary hover:underline"
                    >
                      <span className="truncate">{order.tx_hash}</span>
                      <ExternalLink className="size-3.5 shrink-0" aria-hidden />
                      <span className="sr-only">
                        {(order.tx_chain ?? order.chain) === firstChain
                          ? t('dashboard.tronscan')
                          : t('dashboard.explorer', { network: chainNames[order.tx_chain ?? order.chain] })}
                      </span>
                    </a>
                  </dd>
                </div>
              )}
            </dl>
            <p className="mt-4 border-t border-line pt-3 text-xs text-muted">{t('dashboard.addressNote')}</p>
          </section>
          <DashboardRefunds refunds={order.refunds} />
          <SupportCard />
        </div>
      </div>
    </div>
  )
}
