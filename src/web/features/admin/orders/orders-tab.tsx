import { ChevronLeft, ChevronRight } from 'lucide-react'
import { useEffect, useState } from 'react'
import type { AdminOrderStatus } from '../../../../shared/admin'
import { Button } from '../../../components/ui/button'
import { useT } from '../../../i18n/i18n'
import { Panel } from '../components/fields'
import { useOrders } from './api/orders'
import { BulkDelete } from './bulk-delete'
import { OrderDetailModal } from './order-detail-modal'
import { OrdersFilters } from './orders-filters'
import { OrdersList } from './orders-list'
import { ReconcilePanel } from './reconcile-panel'
import { UnmatchedPayments } from './unmatched-payments'

const PAGE_SIZE = 25

/** The Orders tab: filters, one page of orders, bulk delete; below, the unmatched transfers and reconciliation. */
export function OrdersTab() {
  const t = useT()
  const [search, setSearch] = useState('')
  const [status, setStatus] = useState<AdminOrderStatus | 'all'>('all')
  // The page number, and for a page reached by Next or Previous the order at the edge it came from:
  // the server reads the page from that order however deep it is.
  const [position, setPosition] = useState<{ page: number; afterId?: string; beforeId?: string }>({ page: 1 })
  const page = position.page
  const [selected, setSelected] = useState<Set<string>>(new Set())
  const [openOrder, setOpenOrder] = useState<string | null>(null)

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search or filter starts at page 1
  useEffect(() => setPosition({ page: 1 }), [search, status])

  const orders = useOrders({ search, status, ...position, pageSize: PAGE_SIZE })
  const rows = orders.data?.orders ?? []
  const total = orders.data?.total_count ?? 0
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE))
  // While the next page loads, the rows on screen are still the last page's (kept to avoid a flash):
  // moving again from them would anchor at the wrong edge, so Next and Previous wait for the page.
  const moving = orders.isPlaceholderData

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  const toggleAll = () =>
    setSelected((s) =>
      rows.every((o) => s.has(o.id)) ? new Set() : new Set([...s, ...rows.map((o) => o.id)]),
    )

  return (
    <div className="flex flex-col gap-6">
      <Panel
        title={t('admin.orders.title')}
        actions={<BulkDelete ids={[...selected]} onDone={() => setSelected(new Set())} />}
      >
        <OrdersFilters status={status} onStatus={setStatus} onSearch={setSearch} />

        {orders.isLoading ? (
          <p role="status" className="py-10 text-center text-muted">
            {t('admin.orders.loading')}
          </p>
        ) : rows.length === 0 ? (
          <p className="py-10 text-center text-muted">{t('admin.orders.empty')}</p>
        ) : (
          <OrdersList
            rows={rows}
            selected={selected}
            onToggle={toggle}
            onToggleAll={toggleAll}
            onOpen={setOpenOrder}
          />
        )}

        <div className="mt-4 flex items-center justify-between gap-3 text-sm text-muted">
          <span>{t('admin.orders.pages', { total, page, pages })}</span>
          <div className="flex gap-2">
            <Button
              variant="secondary"
              disabled={page <= 1 || moving}
              onClick={() => setPosition(page <= 2 ? { page: 1 } : { page: page - 1, beforeId: rows[0]?.id })}
              aria-label={t('admin.orders.previous')}
            >
              <ChevronLeft className="size-4" aria-hidden />
            </Button>
            <Button
              variant="secondary"
              disabled={page >= pages || moving}
              onClick={() => setPosition({ page: page + 1, afterId: rows.at(-1)?.id })}
              aria-label={t('admin.orders.next')}
            >
              <ChevronRight className="size-4" aria-hidden />
            </Button>
          </div>
        </div>
      </Panel>

      <UnmatchedPayments />
      <ReconcilePanel />

      {openOrder && <OrderDetailModal orderId={openOrder} onClose={() => setOpenOrder(null)} />}
    </div>
  )
}
