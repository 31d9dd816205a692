import { useQuery } from '@tanstack/react-query'
import { ArrowRight, Link2Off, Package } from 'lucide-react'
import { Link, useParams } from 'react-router'
import { formatUsd } from '../../../shared/money'
import { type LinkedOrder, openOrderLinksAnswerSchema } from '../../../shared/order-links'
import { buttonStyles } from '../../components/ui/button'
import { callRpc } from '../../lib/rpc-client'
import { EmailMyOrders } from './email-my-orders'

// The page an "E-mail me my orders" link opens. Opening it uses the link up, so the answer is read
// once and kept for as long as the page is open: never refetched on focus or remount.

const formatDate = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })

export function MyOrdersPage() {
  const { token = '' } = useParams()
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
        Loading...
      </p>
    )
  }
  if (!opened.data?.success) {
    const message = opened.data && !opened.data.success ? opened.data.error : opened.error?.message
    return (
      <div className="mx-auto max-w-xl px-4 py-16 text-center sm:py-24">
        <div className="mx-auto grid size-14 place-items-center rounded-2xl border border-line bg-card">
          <Link2Off className="size-7 text-muted" aria-hidden />
        </div>
        <h1 className="mt-6 text-2xl font-bold tracking-tight text-fg">Link not valid</h1>
        <p className="mt-3 text-sm leading-relaxed text-muted">{message}</p>
        <div className="mt-10">
          <EmailMyOrders title="Send me a new link" />
        </div>
      </div>
    )
  }
  const { email, orders } = opened.data
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-fg">Your orders</h1>
      <p className="mt-2 text-sm text-muted">
        Paid orders of <span className="font-medium text-fg">{email}</span>. This link has now been used;
        bookmark the dashboards you need.
      </p>
      {orders.length === 0 ? (
        <p className="mt-8 text-muted">No paid orders.</p>
      ) : (
        <ul className="mt-8 space-y-4" aria-label="Your paid orders">
          {orders.map((order) => (
            <OrderCard key={order.id} order={order} />
          ))}
        </ul>
      )}
    </div>
  )
}

function OrderCard({ order }: { order: LinkedOrder }) {
  return (
    <li className="rounded-2xl border border-line bg-card p-5 sm:p-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <p className="text-xs text-muted">
            {formatDate(order.paid_at ?? order.created_at)} · Order{' '}
            <span className="font-mono">{order.id.slice(0, 8)}</span>
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
            {formatUsd(order.total)}
            {order.discount > 0 && (
              <span className="ml-2 text-xs text-emerald-400">({formatUsd(order.discount)} discount)</span>
            )}
          </p>
        </div>
        <Link
          to={order.dashboard_path}
          className={`${buttonStyles.primary} shrink-0`}
          aria-label={`Open the dashboard of order ${order.id.slice(0, 8)}`}
        >
          Open dashboard <ArrowRight className="size-4" aria-hidden />
        </Link>
      </div>
    </li>
  )
}
