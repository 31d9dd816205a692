import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type {
  AdminRefund,
  FetchRefundsAnswer,
  RefundableAnswer,
  RefundToken,
} from '../../../../../shared/refunds'
import { type AdminMessageId, useT } from '../../../../i18n/i18n'
import { toast } from '../../../../lib/toast'
import { adminKeys, read, write } from '../../api/admin-api'
import { accepted } from '../../api/admin-query-client'

// The refunds' calls (decision 039): the list (of an order, or all), what is left to refund, and the
// operator's steps. A refund waiting for its payment is read again every few seconds: the shop's
// watch marks it sent without anyone asking.

type RefundAnswer = { success: true; refund: AdminRefund } | { success: false; error: string }

export const refundKeys = {
  all: ['admin', 'refunds'] as const,
  list: (orderId?: string) => ['admin', 'refunds', 'list', orderId ?? 'all'] as const,
  refundable: (orderId: string) => ['admin', 'refunds', 'refundable', orderId] as const,
}

const WAITING_REFRESH_MS = 5_000

export function useRefunds(orderId?: string) {
  return useQuery({
    queryKey: refundKeys.list(orderId),
    queryFn: () => read<FetchRefundsAnswer>('secure_fetch_refunds', orderId ? { p_order_id: orderId } : {}),
    refetchInterval: (query) =>
      query.state.data?.refunds.some((r) => r.status === 'ready' || r.status === 'awaiting_address')
        ? WAITING_REFRESH_MS
        : false,
  })
}

export function useRefundable(orderId: string) {
  return useQuery({
    queryKey: refundKeys.refundable(orderId),
    queryFn: () =>
      read<RefundableAnswer>('secure_fetch_refundable', {
        p_order_id: orderId,
      }),
  })
}

/**
 * A refund step. `done` is the toast of its success; `nextToField`: its refusal is shown next to the
 * form's field by the caller (onError), not as a toast.
 */
function useRefundWrite<I>(
  name: string,
  payloadOf: (input: I) => object,
  done?: AdminMessageId,
  { nextToField = false } = {},
) {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: I) => accepted(await write<RefundAnswer>(name, payloadOf(input))),
    meta: { failure: 'admin.requestFailed', ...(nextToField ? { toast: false } : {}) },
    onSuccess: () => {
      if (done) toast.success(t(done))
    },
    // A refund changes its order (status, the list's figures): every admin view reads again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  })
}

export interface StartRefund {
  orderId: string
  token: RefundToken
  full: boolean
  amount: string
  reason: string
  disableKeys: boolean
  address: string
  requestKey: string
}

export function useStartRefund() {
  return useRefundWrite<StartRefund>(
    'secure_create_refund',
    (v) => ({
      p_order_id: v.orderId,
      p_token: v.token,
      p_full: v.full,
      ...(v.full ? {} : { p_amount: v.amount }),
      p_reason: v.reason,
      p_disable_keys: v.disableKeys,
      p_request_key: v.requestKey,
      ...(v.address ? { p_address: v.address } : {}),
    }),
    'admin.refund.started',
  )
}

export function useStartReturn() {
  return useRefundWrite<{ paymentId: number; address: string; requestKey: string }>(
    'secure_create_return',
    (v) => ({
      p_payment_id: v.paymentId,
      p_request_key: v.requestKey,
      ...(v.address ? { p_address: v.address } : {}),
    }),
    'admin.refund.started',
  )
}

/** The address the buyer sent the operator: a refusal (not an address of the refund's network) shows next to the field. */
export function useSetRefundAddress() {
  return useRefundWrite<{ id: number; address: string }>(
    'secure_set_refund_address',
    (v) => ({ p_refund_id: v.id, p_address: v.address }),
    undefined,
    { nextToField: true },
  )
}

export function useResendRefundLink() {
  return useRefundWrite<number>('secure_resend_refund_link', (id) => ({ p_refund_id: id }))
}

export function useCancelRefund() {
  return useRefundWrite<number>('secure_cancel_refund', (id) => ({ p_refund_id: id }))
}

/** The operator's hash: its refusal says what does not match, shown next to the field (no toast). */
export function useVerifyRefund() {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (v: { id: number; hash: string }) =>
      accepted(
        await write<RefundAnswer>('secure_verify_refund', { p_refund_id: v.id, p_transaction_hash: v.hash }),
      ),
    meta: { failure: 'admin.requestFailed', toast: false },
    onSuccess: () => toast.success(t('admin.refund.verified')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  })
}
