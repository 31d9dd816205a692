import { useQuery } from '@tanstack/react-query'
import { ArrowRight, Link2Off, Package } from 'lucide-react'
import { Link, useParams } from 'react-router'
import { type LinkedOrder, openOrderLinksAnswerSchema } from '../../../shared/order-links'
import { EmailMyOrders } from '../../components/order-links/email-my-orders'
import { buttonStyles } from '../../components/ui/button'
import { EmailAddress } from '../../components/ui/email-address'
import { Msg, useFormat, useT } from '../../i18n/i18n'
import { callRpc } from '../../lib/rpc-client'

// The page an "E-mail me my orders" link opens. Opening it uses the link up, so the answer is read
// once and kept for as long as the page is open: never refetched on focus or remount.

export function MyOrdersPage() {
  const { token = '' } = useParams()
  const t = useT()
  const opened = useQuery({
    queryKey: ['order-links', token],
    queryFn: async () =>
      openOrderLinksAnswerSchema.parse(
        await callRpc('secure_open_order_links', { p_token: token.slice(0, 200) }),
      ),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
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
      <div className="mx-auto max-w-xl px-4 py-16 text-center sm:py-24">
        <div className="mx-auto grid size-14 place-items-center rounded-2xl border border-line bg-card">
          <Link2Off className="size-7 text-muted" aria-hidden />
        </div>
        <h1 className="mt-6 text-2xl font-bold tracking-tight text-fg">{t('myOrders.invalidTitle')}</h1>
        <p className="mt-3 text-sm leading-relaxed text-muted">{t('myOrders.invalid')}</p>
        <div className="mt-10">
          <EmailMyOrders title="orderLinks.newTitle" />
        </div>
      </div>
    )
  }
  const { email, orders } = opened.data
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-fg">{t('myOrders.title')}</h1>
      <p className="mt-2 text-sm text-muted">
        <Msg
          id="myOrders.intro"
          values={{ email: <EmailAddress email={email} /> }}
          components={{ 0: <span className="font-medium text-fg" /> }}
        />
      </p>
      {orders.length === 0 ? (
        <p className="mt-8 text-muted">{t('myOrders.none')}</p>
      ) : (
        <ul className="mt-8 space-y-4" aria-label={t('myOrders.list')}>
          {orders.map((order) => (
            <OrderCard key={order.id} order={order} />
          ))}
        </ul>
      )}
    </div>
  )
}

function OrderCard({ order }: { order: LinkedOrder }) {
  const t = useT()
  const { usd, date } = useFormat()
  const id = order.id.slice(0, 8)
  return (
    <li className="rounded-2xl border border-line bg-card p-5 sm:p-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <p className="text-xs text-muted">
            {t('myOrders.orderLine', { date: date(order.paid_at ?? order.created_at), id })}
          </p>
          <ul className="mt-2 space-y-1">
            {order.items.map((item) => (
              <li key={item.name} className="flex items-center gap-2 text-sm font-medium text-fg">
                <Package className="size-4 shrink-0 text-muted" aria-hidden />
                <span className="truncate">
                  {item.name} <span className="text-muted">× {item.quantity}</span>
                </span>
              </li>
            ))}
          </ul>
          <p className="mt-2 text-sm text-fg tabular-nums">
            {usd(order.total)}
            {order.discount > 0 && (
              <span className="ml-2 text-xs text-emerald-400">
                {t('myOrders.discount', { amount: usd(order.discount) })}
              </span>
            )}
          </p>
        </div>
        <Link
          to={order.dashboard_path}
          className={`${buttonStyles.primary} shrink-0`}
          aria-label={t('myOrders.openLabel', { id })}
        >
          {t('myOrders.open')} <ArrowRight className="size-4" aria-hidden />
        </Link>
      </div>
    </li>
  )
}
