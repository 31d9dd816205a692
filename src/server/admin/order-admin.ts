import type { AdminOrder, AdminOrderDetail, FetchOrdersAnswer, SettableOrderStatus } from '../../shared/admin'
import { adminMessages } from '../../shared/admin'
import { centsToDollars, microsToCents } from '../../shared/money'
import { isPaidStatus } from '../../shared/order-status'
import { formatSun, receivedUsdMicros } from '../../shared/trx'
import type { Db } from '../db/client'
import { dropUnsentMail, mailsOfOrder } from '../delivery/order-mail.repo'
import { sellerOrderIds } from '../invoices/invoices.repo'
import { keysOfOrder } from '../keys/key-stock'
import { enableKeysOfOrder } from '../keys/licence-state'
import { releaseReservation } from '../keys/reservation'
import { type OrdersPageQuery, ordersPage } from '../orders/order-pages.repo'
import {
  cancelOrder,
  deleteOrderRow,
  findOrder,
  lockOrder,
  type OrderRow,
  orderItemsOnWire,
  reopenOrder,
  setOrderStatus,
} from '../orders/orders.repo'
import { detachOrderPayments, heldOrderIds } from '../payments/ledger'
import { paymentsOfOrder } from '../payments/payment-admin'
import type { PaymentRules } from '../payments/payment-rules'
import { settleOrder } from '../payments/settle-order'
import { orderShortfall } from '../payments/shortfall'
import { confirmingAmounts } from '../payments/sightings'
import { releaseAddress } from '../wallets/wallets.repo'

// The operator's flows over orders, above the modules: the admin's order list and an order's
// detail (the orders module's rows with the ledger's, the keys' and the mail's parts), and the
// workflows that change an order by hand (a status change, a deletion), each through the modules
// that own the other parts (settlement, addresses, keys, ledger, mail).

function toAdminOrder(
  row: OrderRow,
  held: ReadonlySet<string>,
  confirming: ReadonlyMap<string, number> = new Map(),
): AdminOrder {
  const received = receivedUsdMicros(row.amountReceivedUnits, row.nativeReceivedUnits, row.nativeRateE8)
  const receivedCents = microsToCents(received)
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    email: row.email,
    items: orderItemsOnWire(row.items),
    total: centsToDollars(row.totalCents),
    wallet_address: row.walletAddress,
    status: row.status,
    amount_received: centsToDollars(receivedCents),
    trx_amount: row.nativeAmountUnits !== null ? formatSun(row.nativeAmountUnits) : null,
    trx_received: formatSun(row.nativeReceivedUnits),
    paid_at: row.paidAt?.toISOString() ?? null,
    tx_hash: row.txHash,
    chain: row.chain,
    token: row.token,
    late: row.late,
    underpaid: row.status === 'pending' && receivedCents > 0 && receivedCents < row.totalCents,
    held: held.has(row.id),
    discount_code: row.discountCode,
    discount: centsToDollars(row.discountCents),
    confirming: confirming.get(row.id) ?? null,
  }
}

export async function listOrders(db: Db, opts: OrdersPageQuery): Promise<FetchOrdersAnswer> {
  const { rows, totalCount } = await ordersPage(db, opts)
  const held = await heldOrderIds(
    db,
    rows.map((r) => r.id),
  )
  const confirming = await confirmingAmounts(db, rows)
  return {
    success: true,
    orders: rows.map((r) => toAdminOrder(r, held, confirming)),
    total_count: totalCount,
    page: opts.page,
    page_size: opts.pageSize,
  }
}

export type StatusChangeResult =
  | { kind: 'ok'; delivered: boolean }
  | { kind: 'not_found' }
  | { kind: 'refused'; error: string }

/**
 * Any status to any other, through the modules that own each part. Paid or completed by hand goes
 * through the one settlement path (token, keys, e-mail once; a paid order keeps its token);
 * cancelling starts the address's cool-down; pending again gives the order its own address back and
 * a fresh window, or is refused when another order has that address. Never moves a payment.
 */
export async function updateOrderStatus(
  db: Db,
  orderId: string,
  status: SettableOrderStatus,
  rules: PaymentRules,
): Promise<StatusChangeResult> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId)
    if (!order) return { kind: 'not_found' }
    if (order.status === status) return { kind: 'ok', delivered: false }
    // Only a refund proven on the chain sets or leaves these (src/server/refunds).
    if (order.status === 'refunded' || order.status === 'partially_refunded')
      return { kind: 'refused', error: adminMessages.refundedStatus }
    const wasPaid = isPaidStatus(order.status)
    // Out of cancelled: the keys the cancellation disabled work again (a refund's stay disabled).
    if (order.status === 'cancelled') await enableKeysOfOrder(tx, orderId, 'cancelled')
    if (isPaidStatus(status)) {
      let delivered = false
      if (!wasPaid) {
        const settled = await settleOrder(tx, orderId, rules, { manual: true })
        delivered = settled.kind === 'paid'
      }
      if (status === 'completed') await setOrderStatus(tx, orderId, 'completed')
      return { kind: 'ok', delivered }
    }
    if (status === 'cancelled') {
      await cancelOrder(tx, orderId, 'admin', new Date(), rules.cooldownMs)
      return { kind: 'ok', delivered: false }
    }
    const reopened = await reopenOrder(tx, order, rules.windowMs, rules.graceMs)
    if (reopened === 'ok') return { kind: 'ok', delivered: false }
    return {
      kind: 'refused',
      error: reopened === 'in_use' ? adminMessages.reopenAddressInUse : adminMessages.reopenAddressRemoved,
    }
  })
}

/**
 * Deletes an order. Its payments stay in the ledger, unmatched, so no received money disappears
 * from the panel; keys already handed out and sent e-mails stay with the buyer; an unsent e-mail is
 * dropped; a pending order's address starts its cool-down.
 */
export async function deleteOrder(db: Db, orderId: string, rules: PaymentRules): Promise<boolean> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId)
    if (!order) return false
    await releaseAddress(tx, orderId, new Date(), rules.cooldownMs)
    await releaseReservation(tx, orderId)
    await detachOrderPayments(tx, orderId)
    await dropUnsentMail(tx, orderId)
    return deleteOrderRow(tx, orderId)
  })
}

export async function orderDetail(db: Db, orderId: string): Promise<AdminOrderDetail | null> {
  const row = await findOrder(db, orderId)
  if (!row) return null
  const [keys, orderPayments, mails, sellerIds] = await Promise.all([
    keysOfOrder(db, orderId),
    paymentsOfOrder(db, orderId),
    mailsOfOrder(db, orderId),
    sellerOrderIds(db, [orderId]),
  ])
  return {
    success: true,
    order: {
      ...toAdminOrder(row, await heldOrderIds(db, [orderId]), await confirmingAmounts(db, [row])),
      window_ends_at: row.windowEndsAt.toISOString(),
      grace_until: row.graceUntil.toISOString(),
      cancelled_at: row.cancelledAt?.toISOString() ?? null,
      shortfall: await orderShortfall(db, row),
      seller_order_id: sellerIds.get(orderId) ?? null,
    },
    keys: keys.map((k) => ({ product_id: k.productId, key: k.key, generated: k.generated })),
    payments: orderPayments,
    mails: mails.map((m) => ({
      id: m.id,
      kind: m.kind,
      to_email: m.toEmail,
      status: m.status,
      attempts: m.attempts,
      last_error: m.lastError,
      sent_at: m.sentAt?.toISOString() ?? null,
      next_attempt_at: m.nextAttemptAt.toISOString(),
    })),
  }
}
