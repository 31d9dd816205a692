import {
  type AdminOrder,
  type AdminOrderStatus,
  type SettableOrderStatus,
  settableOrderStatuses,
} from '../../../../shared/admin'
import { useFormat, useT } from '../../../i18n/i18n'
import { Mark } from '../components/mark'
import { useOrderFormat } from '../lib/orders-format'
import { useUpdateOrderStatus } from './api/orders'
import { HeldReview } from './held-review'
import { ConfirmingMark } from './order-sightings'

const statusColour: Record<AdminOrderStatus, string> = {
  pending: 'text-amber-300',
  paid: 'text-sky-300',
  completed: 'text-emerald-300',
  cancelled: 'text-red-300',
  refunded: 'text-violet-300',
  partially_refunded: 'text-violet-300',
}

/** One page of orders: cards on small screens, a table from md up; each row selectable and opened. */
export function OrdersList({
  rows,
  selected,
  onToggle,
  onToggleAll,
  onOpen,
}: {
  rows: AdminOrder[]
  selected: ReadonlySet<string>
  onToggle: (id: string) => void
  /** Selects every row of the page, or clears them all when they are all selected. */
  onToggleAll: () => void
  onOpen: (id: string) => void
}) {
  const t = useT()
  const { usd, token } = useFormat()
  const orderFmt = useOrderFormat()
  const allSelected = rows.length > 0 && rows.every((o) => selected.has(o.id))
  return (
    <>
      {/* Small screens: one card per order. */}
      <ul className="flex flex-col gap-3 md:hidden">
        {rows.map((order) => (
          <li key={order.id} className="rounded-xl border border-line p-3 text-sm">
            <div className="flex items-start gap-3">
              <input
                type="checkbox"
                className="mt-1"
                aria-label={t('admin.orders.select', { id: order.id })}
                checked={selected.has(order.id)}
                onChange={() => onToggle(order.id)}
              />
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <button
                    type="button"
                    onClick={() => onOpen(order.id)}
                    className="font-mono text-xs text-accent hover:underline"
                  >
                    {order.id.slice(0, 8)}
                  </button>
                  <span className="text-xs text-muted">{orderFmt.date(order.created_at)}</span>
                </div>
                <div className="mt-1 truncate">{order.email}</div>
                <div className="text-muted">{orderFmt.items(order.items)}</div>
                <div className="mt-1 font-mono text-xs break-all text-muted">{order.wallet_address}</div>
                <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
                  <span className="flex items-center gap-2 font-medium">
                    {usd(order.total)}
                    {order.late && <Mark tone="amber">{t('admin.late')}</Mark>}
                    {order.underpaid && <Mark tone="red">{t('admin.underpaid')}</Mark>}
                    <ConfirmingMark amount={order.confirming} />
                  </span>
                  <StatusSelect order={order} />
                </div>
                {order.held && <HeldReview order={order} />}
              </div>
            </div>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto md:block">
        <table className="w-full min-w-[56rem] text-left text-sm">
          <thead className="border-b border-line text-xs tracking-wide text-muted uppercase">
            <tr>
              <th className="px-3 py-2">
                <input
                  type="checkbox"
                  aria-label={t('admin.orders.selectAll')}
                  checked={allSelected}
                  onChange={onToggleAll}
                />
              </th>
              <th className="px-3 py-2">{t('admin.orders.col.order')}</th>
              <th className="px-3 py-2">{t('admin.orders.col.date')}</th>
              <th className="px-3 py-2">{t('admin.orders.col.email')}</th>
              <th className="px-3 py-2">{t('admin.orders.col.items')}</th>
              <th className="px-3 py-2">{t('admin.orders.col.total')}</th>
              <th className="px-3 py-2">{t('admin.orders.col.wallet')}</th>
              <th className="px-3 py-2">{t('admin.orders.col.status')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((order) => (
              <tr key={order.id} className="border-b border-line/60 align-top hover:bg-white/[0.02]">
                <td className="px-3 py-3">
                  <input
                    type="checkbox"
                    aria-label={t('admin.orders.select', { id: order.id })}
                    checked={selected.has(order.id)}
                    onChange={() => onToggle(order.id)}
                  />
                </td>
                <td className="px-3 py-3">
                  <button
                    type="button"
                    onClick={() => onOpen(order.id)}
                    className="font-mono text-xs text-accent hover:underline"
                    title={order.id}
                  >
                    {order.id.slice(0, 8)}
                  </button>
                  <div className="mt-1 flex gap-1">
                    {order.late && <Mark tone="amber">{t('admin.late')}</Mark>}
                    {order.underpaid && <Mark tone="red">{t('admin.underpaid')}</Mark>}
                    <ConfirmingMark amount={order.confirming} />
                  </div>
                </td>
                <td className="px-3 py-3 whitespace-nowrap text-muted">{orderFmt.date(order.created_at)}</td>
                <td className="max-w-48 truncate px-3 py-3" title={order.email}>
                  {order.email}
                </td>
                <td className="max-w-56 px-3 py-3 text-muted">{orderFmt.items(order.items)}</td>
                <td className="px-3 py-3 font-medium whitespace-nowrap">
                  {usd(order.total)}
                  {order.trx_amount && (
                    <div className="text-xs font-normal text-muted">
                      {t('admin.orders.orTrx', { amount: token(order.trx_amount, 'TRX') })}
                    </div>
                  )}
                </td>
                <td className="px-3 py-3 font-mono text-xs text-muted" title={order.wallet_address}>
                  {order.wallet_address.slice(0, 6)}…{order.wallet_address.slice(-4)}
                </td>
                <td className="px-3 py-3">
                  <StatusSelect order={order} />
                  {order.held && <HeldReview order={order} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  )
}

/**
 * An order's status, changed on the spot: the selector shows the new status while the server
 * works, then the server's (the new one, or the old one back when it refused).
 */
function StatusSelect({ order }: { order: AdminOrder }) {
  const t = useT()
  const change = useUpdateOrderStatus()
  const value: AdminOrderStatus = change.isPending ? change.variables.status : order.status
  // A refunded order's status follows its refunds: shown, not chosen.
  const refunded = order.status === 'refunded' || order.status === 'partially_refunded'
  return (
    <select
      aria-label={t('admin.orders.statusOf', { id: order.id })}
      value={value}
      disabled={change.isPending || refunded}
      onChange={(e) => change.mutate({ id: order.id, status: e.target.value as SettableOrderStatus })}
      className={`rounded-lg border border-line bg-background px-2 py-1.5 text-sm ${statusColour[value]}`}
    >
      {(refunded ? [order.status] : settableOrderStatuses).map((s) => (
        <option key={s} value={s}>
          {t(`admin.status.${s}`)}
        </option>
      ))}
    </select>
  )
}
