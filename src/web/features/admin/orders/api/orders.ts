import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type {
  AdminOrderDetail,
  AdminOrderSightings,
  AdminOrderStatus,
  AdminPayment,
  FetchOrdersAnswer,
  SettableOrderStatus,
} from '../../../../../shared/admin'
import { useT } from '../../../../i18n/i18n'
import { callRpc, RpcError } from '../../../../lib/rpc-client'
import { toast } from '../../../../lib/toast'
import { adminKeys, type Outcome, read, write } from '../../api/admin-api'
import { accepted } from '../../api/admin-query-client'

// The Orders tab's calls: the list, one order, its status, deleting, the e-mail again, the
// transfers that matched no order and the orders held for review. Each write says when it worked
// and refreshes what it changed (here, so it happens even when the row that asked is gone by
// then); a failure is told by the admin client's one error toast (meta.failure names it).

export interface OrdersQuery {
  search: string
  status: AdminOrderStatus | 'all'
  page: number
  pageSize: number
  /** Next and Previous: the order at the edge of the page they left (the server reads from there). */
  afterId?: string
  beforeId?: string
}

export const orderKeys = {
  all: ['admin', 'orders'] as const,
  list: (query: OrdersQuery) => ['admin', 'orders', 'list', query] as const,
  detail: (id: string) => ['admin', 'orders', 'detail', id] as const,
  sightings: (id: string) => ['admin', 'orders', 'detail', id, 'sightings'] as const,
  unmatched: ['admin', 'orders', 'unmatched-payments'] as const,
}

/** A newly paid order shows within this time without a reload. */
const ORDERS_REFRESH_MS = 4_000

/**
 * One page of orders, read again every few seconds; structural sharing keeps the same data object
 * when nothing changed, so the table re-renders only on a real change.
 */
export function useOrders(query: OrdersQuery) {
  return useQuery({
    queryKey: orderKeys.list(query),
    queryFn: () =>
      read<FetchOrdersAnswer>('secure_fetch_orders', {
        p_search: query.search || undefined,
        p_status: query.status,
        p_page: query.page,
        p_page_size: query.pageSize,
        p_after_id: query.afterId,
        p_before_id: query.beforeId,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: ORDERS_REFRESH_MS,
  })
}

/** What was seen of the order's transfers before they were final (decision 024). */
export function useOrderSightings(id: string) {
  return useQuery({
    queryKey: orderKeys.sightings(id),
    queryFn: () => read<AdminOrderSightings>('secure_fetch_order_sightings', { p_order_id: id }),
  })
}

export function useOrder(id: string) {
  return useQuery({
    queryKey: orderKeys.detail(id),
    queryFn: () => read<AdminOrderDetail>('secure_fetch_order', { p_order_id: id }),
  })
}

/** Setting a status is idempotent (paying an order delivers it once), so the client may retry it. */
export function useUpdateOrderStatus() {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ id, status }: { id: string; status: SettableOrderStatus }) =>
      accepted(
        await callRpc<Outcome>(
          'secure_update_order_status',
          { p_order_id: id, p_status: status },
          { idempotent: true },
        ),
      ),
    meta: { failure: 'admin.orders.statusFailed' },
    onSuccess: () => toast.success(t('admin.orders.statusUpdated'), { duration: 2000 }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: orderKeys.all }),
  })
}

/**
 * Deletes the orders one call each. Any failure fails the whole (the toast says some were not
 * deleted); a lost connection or session is told once by whoever saw it first.
 */
export function useDeleteOrders() {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (ids: string[]) => {
      const results = await Promise.allSettled(
        ids.map((id) => write('secure_delete_order', { p_order_id: id })),
      )
      const told = results.find(
        (r) =>
          r.status === 'rejected' &&
          r.reason instanceof RpcError &&
          (r.reason.network || r.reason.status === 401),
      )
      if (told?.status === 'rejected') throw told.reason
      if (results.some((r) => r.status === 'rejected' || !r.value.success)) throw new Error('not all deleted')
      return ids.length
    },
    meta: { failure: 'admin.orders.deleteFailed' },
    onSuccess: (count) => toast.success(t('admin.orders.deleted', { count }), { duration: 2000 }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: orderKeys.all }),
  })
}

export function useResendOrderEmail(id: string) {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async () => accepted(await write('secure_resend_order_email', { p_order_id: id })),
    meta: { failure: 'admin.order.queueFailed' },
    onSuccess: () => toast.success(t('admin.order.queued'), { duration: 2000 }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: orderKeys.detail(id) }),
  })
}

export function useUnmatchedPayments() {
  return useQuery({
    queryKey: orderKeys.unmatched,
    queryFn: () => read<{ success: true; payments: AdminPayment[] }>('secure_fetch_unmatched_payments'),
    refetchInterval: 30_000,
  })
}

/** Assigning a transfer may pay an order: its address, stock and the sales figures change too. */
export function useAssignPayment(paymentId: number) {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (orderId: string) =>
      accepted(await write('secure_assign_payment', { p_payment_id: paymentId, p_order_id: orderId })),
    meta: { failure: 'admin.unmatched.assignFailed' },
    onSuccess: async () => {
      toast.success(t('admin.unmatched.assigned'), { duration: 2000 })
      await queryClient.invalidateQueries({ queryKey: adminKeys.all })
    },
  })
}

/** Releasing a held order pays it (or refusing leaves the transfer unmatched): as assigning. */
export function useReviewHeldOrder(orderId: string) {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (decision: 'release' | 'refuse') =>
      accepted(
        await write<{ success: true; paid: boolean } | { success: false; error: string }>(
          'secure_review_held_order',
          { p_order_id: orderId, p_decision: decision },
        ),
      ),
    meta: { failure: 'admin.held.failed' },
    onSuccess: (answer, decision) => {
      if (decision === 'refuse') toast.success(t('admin.held.refused'))
      else toast.success(answer.paid ? t('admin.held.releasedPaid') : t('admin.held.released'))
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  })
}
