import {
  adminMessages,
  assignPaymentInputSchema,
  fetchOrdersInputSchema,
  ORDERS_PAGE_SIZE,
  orderIdInputSchema,
  reviewHeldOrderInputSchema,
  updateOrderStatusInputSchema,
} from '../../shared/admin'
import { centsToDollars } from '../../shared/money'
import { refundMessages } from '../../shared/refunds'
import { adminOnlyPayloadSchema } from '../../shared/rpc'
import { onSuccess } from '../audit/audit-log'
import { requeueOrderMail } from '../delivery/order-mail.repo'
import { AppError } from '../errors'
import { findOrder, type OrderRow } from '../orders/orders.repo'
import { assignPayment, listUnmatchedPayments, reviewHeldOrder } from '../payments/payment-admin'
import { returnedPayments } from '../refunds/refunds.repo'
import { defineRpc } from '../rpc'
import type { AdminDeps } from './admin.routes'
import { deleteOrder, listOrders, orderDetail, updateOrderStatus } from './order-admin'

// The admin's orders: list, detail, status, delete, the e-mail again, unmatched transfers and the
// decisions on them. Each calls the module whose tables the action changes (orders, payments,
// delivery); none writes a table itself.

export function adminOrderRpcs({
  database,
  rules,
  orderPaid,
}: Pick<AdminDeps, 'database' | 'rules' | 'orderPaid'>) {
  const { db } = database
  return [
    defineRpc({
      name: 'secure_fetch_orders',
      input: fetchOrdersInputSchema,
      admin: true,
      handler: async (input) =>
        listOrders(db, {
          search: input.p_search || undefined,
          status: input.p_status,
          page: input.p_page ?? 1,
          pageSize: input.p_page_size ?? ORDERS_PAGE_SIZE,
          afterId: input.p_after_id,
          beforeId: input.p_before_id,
        }),
    }),
    defineRpc({
      name: 'secure_fetch_order',
      input: orderIdInputSchema,
      admin: true,
      handler: async (input) => {
        const detail = await orderDetail(db, input.p_order_id)
        if (!detail) throw new AppError('not_found', `Order ${input.p_order_id} not found`)
        return detail
      },
    }),
    defineRpc({
      name: 'secure_update_order_status',
      input: updateOrderStatusInputSchema,
      admin: true,
      audit: {
        before: async (db, input) => (await findOrder(db, input.p_order_id))?.status ?? null,
        entries: onSuccess(({ input, actor, before }) => ({
          action: 'order_status',
          actor,
          target: input.p_order_id,
          details: { from: before, to: input.p_status },
        })),
      },
      handler: async (input) => {
        const result = await updateOrderStatus(db, input.p_order_id, input.p_status, rules)
        if (result.kind === 'not_found')
          return { success: false, error: `Order ${input.p_order_id} not found` }
        if (result.kind === 'refused') return { success: false, error: result.error }
        if (result.delivered) orderPaid.emit(input.p_order_id)
        return { success: true }
      },
    }),
    defineRpc({
      name: 'secure_delete_order',
      input: orderIdInputSchema,
      admin: true,
      audit: {
        before: (db, input) => findOrder(db, input.p_order_id),
        entries: onSuccess<{ p_order_id: string }, OrderRow | undefined>(({ input, actor, before }) => ({
          action: 'order_delete',
          actor,
          target: input.p_order_id,
          details: before ? { status: before.status, total: centsToDollars(before.totalCents) } : {},
        })),
      },
      handler: async (input) =>
        (await deleteOrder(db, input.p_order_id, rules))
          ? { success: true }
          : { success: false, error: `Order ${input.p_order_id} not found` },
    }),
    defineRpc({
      name: 'secure_resend_order_email',
      input: orderIdInputSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ input, result, actor }) => ({
          action: 'mail_resend',
          actor,
          target: input.p_order_id,
          details: { queued: result.queued },
        })),
      },
      handler: async (input) => {
        const queued = await requeueOrderMail(db, input.p_order_id)
        return queued > 0
          ? { success: true, queued }
          : { success: false, error: 'No e-mail was queued for this order' }
      },
    }),
    defineRpc({
      name: 'secure_fetch_unmatched_payments',
      input: adminOnlyPayloadSchema,
      admin: true,
      handler: async () => ({ success: true, payments: await listUnmatchedPayments(db) }),
    }),
    defineRpc({
      name: 'secure_assign_payment',
      input: assignPaymentInputSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ input, actor }) => ({
          action: 'payment_assign',
          actor,
          target: input.p_order_id,
          details: { payment_id: input.p_payment_id },
        })),
      },
      handler: async (input) => {
        // A transfer being returned to its sender never pays an order as well.
        if ((await returnedPayments(db, [input.p_payment_id])).size > 0)
          return { success: false, error: refundMessages.alreadyReturned }
        const result = await assignPayment(db, input.p_payment_id, input.p_order_id, rules)
        if (result.kind === 'ok') {
          if (result.paid) orderPaid.emit(input.p_order_id)
          return { success: true, paid: result.paid }
        }
        return {
          success: false,
          error:
            result.kind === 'no_order'
              ? `Order ${input.p_order_id} not found`
              : result.kind === 'already_credited'
                ? adminMessages.paymentAlreadyCredited
                : `Payment ${input.p_payment_id} not found`,
        }
      },
    }),

    defineRpc({
      name: 'secure_review_held_order',
      input: reviewHeldOrderInputSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ input, result, actor }) => ({
          action: 'order_review',
          actor,
          target: input.p_order_id,
          details: { decision: input.p_decision, paid: result.paid },
        })),
      },
      handler: async (input) => {
        const result = await reviewHeldOrder(db, input.p_order_id, input.p_decision, rules)
        if (result.kind === 'ok') {
          if (result.paid) orderPaid.emit(input.p_order_id)
          return { success: true, paid: result.paid }
        }
        return {
          success: false,
          error: result.kind === 'no_order' ? `Order ${input.p_order_id} not found` : adminMessages.notHeld,
        }
      },
    }),
  ]
}
