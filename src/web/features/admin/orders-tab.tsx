import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ChevronLeft, ChevronRight, Search, Trash2 } from 'lucide-react'
import { useEffect, useState } from 'react'
import { type AdminOrder, type AdminOrderStatus, adminOrderStatuses } from '../../../shared/admin'
import { Button } from '../../components/ui/button'
import { useFormat, useT } from '../../i18n/i18n'
import { RpcError } from '../../lib/rpc-client'
import { toast } from '../../lib/toast'
import { adminApi, adminKeys } from './api/admin-api'
import { ExportOrdersLink } from './cockpit/export-orders-link'
import { ConfirmDialog } from './components/confirm-dialog'
import { inputClass, Panel } from './components/fields'
import { Mark } from './components/mark'
import { HeldReview } from './held-review'
import { OrderDetailModal } from './order-detail-modal'
import { useOrderFormat } from './orders-format'
import { ReconcilePanel } from './reconcile-panel'
import { UnmatchedPayments } from './unmatched-payments'

const PAGE_SIZE = 25
/** A newly paid order shows within this time without a reload. */
const REFRESH_MS = 4_000

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return debounced
}

const statusColour: Record<AdminOrderStatus, string> = {
  pending: 'text-amber-300',
  paid: 'text-sky-300',
  completed: 'text-emerald-300',
  cancelled: 'text-red-300',
}

export function OrdersTab() {
  const t = useT()
  const { usd } = useFormat()
  const orderFmt = useOrderFormat()
  const queryClient = useQueryClient()
  const [searchText, setSearchText] = useState('')
  const search = useDebounced(searchText.trim(), 300)
  const [status, setStatus] = useState<AdminOrderStatus | 'all'>('all')
  const [page, setPage] = useState(1)
  const [selected, setSelected] = useState<Set<string>>(new Set())
  const [confirming, setConfirming] = useState(false)
  const [pendingStatus, setPendingStatus] = useState<Record<string, AdminOrderStatus>>({})
  const [openOrder, setOpenOrder] = useState<string | null>(null)

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search or filter starts at page 1
  useEffect(() => setPage(1), [search, status])

  const query = { search, status, page, pageSize: PAGE_SIZE }
  // Refetched every few seconds; structural sharing keeps the same data object when nothing
  // changed, so the table re-renders only on a real change.
  const orders = useQuery({
    queryKey: adminKeys.orders(query),
    queryFn: () => adminApi.orders(query),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  })

  const rows = orders.data?.orders ?? []
  const total = orders.data?.total_count ?? 0
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE))
  const visibleSelected = rows.filter((o) => selected.has(o.id))
  const allSelected = rows.length > 0 && visibleSelected.length === rows.length

  const statusChange = useMutation({
    mutationFn: async ({ order, next }: { order: AdminOrder; next: AdminOrderStatus }) => {
      const answer = await adminApi.updateOrderStatus(order.id, next)
      if (!answer.success) throw new Error(answer.error || t('admin.orders.statusFailed'))
    },
    onMutate: ({ order, next }) => setPendingStatus((s) => ({ ...s, [order.id]: next })),
    onSuccess: () => toast.success(t('admin.orders.statusUpdated'), { duration: 2000 }),
    onError: (err) => {
      // A lost session goes to the login page; a network failure has shown its toast.
      if (err instanceof RpcError && (err.status === 401 || err.network)) {
        if (err.network) toast.error(t('admin.orders.statusFailed'))
        return
      }
      toast.error(err.message || t('admin.orders.statusFailed'))
    },
    onSettled: async (_data, _err, { order }) => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.ordersAll })
      // Success shows the server's new status; failure reverts the selector to it.
      setPendingStatus(({ [order.id]: _, ...rest }) => rest)
    },
  })
  const changeStatus = (order: AdminOrder, next: AdminOrderStatus) => statusChange.mutate({ order, next })

  const bulkDelete = useMutation({
    mutationFn: async (ids: string[]) => {
      const results = await Promise.allSettled(ids.map((id) => adminApi.deleteOrder(id)))
      return results.filter((r) => r.status === 'rejected' || !r.value.success).length
    },
    onSuccess: (failed, ids) => {
      if (failed === 0) toast.success(t('admin.orders.deleted', { count: ids.length }), { duration: 2000 })
      else toast.error(t('admin.orders.deleteFailed'))
    },
    onSettled: async () => {
      setConfirming(false)
      setSelected(new Set())
      await queryClient.invalidateQueries({ queryKey: adminKeys.ordersAll })
    },
  })
  const deleteSelected = () => bulkDelete.mutate([...selected])
  const deleting = bulkDelete.isPending

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })

  return (
    <div className="flex flex-col gap-6">
      <Panel
        title={t('admin.orders.title')}
        actions={
          selected.size > 0 && (
            <Button variant="danger" onClick={() => setConfirming(true)}>
              <Trash2 className="size-4" aria-hidden />
              {t('admin.orders.deleteSelected', { count: selected.size })}
            </Button>
          )
        }
      >
        <div className="mb-4 flex flex-col gap-3 sm:flex-row">
          <div className="relative flex-1">
            <Search
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted"
              aria-hidden
            />
            <input
              type="search"
              aria-label={t('admin.orders.search')}
              placeholder={t('admin.orders.searchPlaceholder')}
              value={searchText}
              onChange={(e) => setSearchText(e.target.value)}
              className={`${inputClass} pl-9`}
            />
          </div>
          <select
            aria-label={t('admin.orders.filter')}
            value={status}
            onChange={(e) => setStatus(e.target.value as AdminOrderStatus | 'all')}
            className={`${inputClass} sm:w-48`}
          >
            <option value="all">{t('admin.orders.allStatuses')}</option>
            {adminOrderStatuses.map((s) => (
              <option key={s} value={s}>
                {t(`admin.statusFilter.${s}`)}
              </option>
            ))}
          </select>
          <ExportOrdersLink search={search} status={status} />
        </div>

        {orders.isLoading ? (
          <p role="status" className="py-10 text-center text-muted">
            {t('admin.orders.loading')}
          </p>
        ) : rows.length === 0 ? (
          <p className="py-10 text-center text-muted">{t('admin.orders.empty')}</p>
        ) : (
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
                      onChange={() => toggle(order.id)}
                    />
                    <div className="min-w-0 flex-1">
                      <div className="flex flex-wrap items-center justify-between gap-2">
                        <button
                          type="button"
                          onClick={() => setOpenOrder(order.id)}
                          className="font-mono text-xs text-accent hover:underline"
                        >
                          {order.id.slice(0, 8)}
                        </button>
                        <span className="text-xs text-muted">{orderFmt.date(order.created_at)}</span>
                      </div>
                      <div className="mt-1 truncate">{order.email}</div>
                      <div className="text-muted">{orderFmt.items(order.items)}</div>
                      <div className="mt-1 font-mono text-xs break-all text-muted">
                        {order.wallet_address}
                      </div>
                      <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
                        <span className="flex items-center gap-2 font-medium">
                          {usd(order.total)}
                          {order.late && <Mark tone="amber">{t('admin.late')}</Mark>}
                          {order.underpaid && <Mark tone="red">{t('admin.underpaid')}</Mark>}
                        </span>
                        <StatusSelect
                          order={order}
                          pending={pendingStatus[order.id]}
                          onChange={changeStatus}
                        />
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
                        onChange={() =>
                          setSelected(
                            allSelected ? new Set() : new Set([...selected, ...rows.map((o) => o.id)]),
                          )
                        }
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
                          onChange={() => toggle(order.id)}
                        />
                      </td>
                      <td className="px-3 py-3">
                        <button
                          type="button"
                          onClick={() => setOpenOrder(order.id)}
                          className="font-mono text-xs text-accent hover:underline"
                          title={order.id}
                        >
                          {order.id.slice(0, 8)}
                        </button>
                        <div className="mt-1 flex gap-1">
                          {order.late && <Mark tone="amber">{t('admin.late')}</Mark>}
                          {order.underpaid && <Mark tone="red">{t('admin.underpaid')}</Mark>}
                        </div>
                      </td>
                      <td className="px-3 py-3 whitespace-nowrap text-muted">
                        {orderFmt.date(order.created_at)}
                      </td>
                      <td className="max-w-48 truncate px-3 py-3" title={order.email}>
                        {order.email}
                      </td>
                      <td className="max-w-56 px-3 py-3 text-muted">{orderFmt.items(order.items)}</td>
                      <td className="px-3 py-3 font-medium whitespace-nowrap">
                        {usd(order.total)}
                        {order.trx_amount && (
                          <div className="text-xs font-normal text-muted">
                            {t('admin.orders.orTrx', { amount: order.trx_amount })}
                          </div>
                        )}
                      </td>
                      <td className="px-3 py-3 font-mono text-xs text-muted" title={order.wallet_address}>
                        {order.wallet_address.slice(0, 6)}…{order.wallet_address.slice(-4)}
                      </td>
                      <td className="px-3 py-3">
                        <StatusSelect
                          order={order}
                          pending={pendingStatus[order.id]}
                          onChange={changeStatus}
                        />
                        {order.held && <HeldReview order={order} />}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}

        <div className="mt-4 flex items-center justify-between gap-3 text-sm text-muted">
          <span>{t('admin.orders.pages', { total, page, pages })}</span>
          <div className="flex gap-2">
            <Button
              variant="secondary"
              disabled={page <= 1}
              onClick={() => setPage((p) => p - 1)}
              aria-label={t('admin.orders.previous')}
            >
              <ChevronLeft className="size-4" aria-hidden />
            </Button>
            <Button
              variant="secondary"
              disabled={page >= pages}
              onClick={() => setPage((p) => p + 1)}
              aria-label={t('admin.orders.next')}
            >
              <ChevronRight className="size-4" aria-hidden />
            </Button>
          </div>
        </div>
      </Panel>

      <UnmatchedPayments />
      <ReconcilePanel />

      <ConfirmDialog
        open={confirming}
        title={t('admin.orders.deleteTitle')}
        message={t('admin.orders.deleteConfirm', { count: selected.size })}
        busy={deleting}
        onConfirm={deleteSelected}
        onClose={() => setConfirming(false)}
      />
      {openOrder && <OrderDetailModal orderId={openOrder} onClose={() => setOpenOrder(null)} />}
    </div>
  )
}

function StatusSelect({
  order,
  pending,
  onChange,
}: {
  order: AdminOrder
  pending: AdminOrderStatus | undefined
  onChange: (order: AdminOrder, next: AdminOrderStatus) => void
}) {
  const t = useT()
  const value = pending ?? order.status
  return (
    <select
      aria-label={t('admin.orders.statusOf', { id: order.id })}
      value={value}
      disabled={pending !== undefined}
      onChange={(e) => onChange(order, e.target.value as AdminOrderStatus)}
      className={`rounded-lg border border-line bg-background px-2 py-1.5 text-sm ${statusColour[value]}`}
    >
      {adminOrderStatuses.map((s) => (
        <option key={s} value={s}>
          {t(`admin.status.${s}`)}
        </option>
      ))}
    </select>
  )
}
