import { type ChainId, firstChain, type TokenSymbol } from '../../shared/chains'
import { formatCents, microsToDollars } from '../../shared/money'
import { formatSun } from '../../shared/trx'
import { stableUnitsToMicros } from '../chains/chain'
import { decimalsOf } from '../chains/token-table'
import type { Db } from '../db/client'
import type { OrderItemSnapshot } from '../db/schema'
import type { LowStock } from '../keys/low-stock'
import { raiseAlert } from './alerts'

// The operator alerts a change in the shop raises, each written out once. The flow that makes the
// change raises them in its own transaction, beside the webhook event it records: recording an event
// never raises an alert by itself.

/** A paid order (raised with order.paid, in the paying transaction). */
export async function alertOrderPaid(
  tx: Db,
  order: {
    id: string
    totalCents: number
    items: readonly OrderItemSnapshot[]
    email: string
    txHash: string | null
  },
): Promise<void> {
  const units = order.items.reduce((n, item) => n + item.quantity, 0)
  await raiseAlert(
    tx,
    'order_paid',
    order.id,
    `Order ${order.id} paid: $${formatCents(order.totalCents)} for ${units} item(s) by ${order.email}.${order.txHash ? ` Transaction ${order.txHash}.` : ''}`,
  )
}

export interface UnmatchedTransfer {
  /** The chain it was sent on. */
  chain: ChainId
  txId: string
  token: TokenSymbol
  amountUnits: bigint
  fromAddress: string
  toAddress: string
  reason?: string
  /** The order whose address it reached, if any. */
  orderId?: string | null
}

/** A transfer that pays no order, or one that holds an order for review. */
export async function alertUnmatchedPayment(tx: Db, transfer: UnmatchedTransfer): Promise<void> {
  const { chain } = transfer
  // Stablecoins at their decimals on their chain (the token table), TRX in sun.
  const amount =
    transfer.token === 'TRX'
      ? `${formatSun(transfer.amountUnits)} TRX`
      : `${microsToDollars(stableUnitsToMicros(transfer.amountUnits, decimalsOf(chain, transfer.token)))} ${transfer.token}${chain === firstChain ? '' : ` on ${chain}`}`
  if (transfer.reason === 'held_for_review' && transfer.orderId) {
    await raiseAlert(
      tx,
      'payment_unmatched',
      `held|${transfer.orderId}`,
      `Order ${transfer.orderId} is held for review: a transfer of ${amount} to ${transfer.toAddress} came from ${transfer.fromAddress}, which paid another order at this address before. Transaction ${transfer.txId}. Release or refuse it on the Orders tab.`,
    )
  } else {
    await raiseAlert(
      tx,
      'payment_unmatched',
      `${transfer.txId}|${transfer.toAddress}|${transfer.token}`,
      `A transfer of ${amount} to ${transfer.toAddress} matches no order (${transfer.reason ?? 'no_order'}). Transaction ${transfer.txId}. Assign it on the Orders tab.`,
    )
  }
}

/** Products low on licence keys (keys/low-stock.ts says which). */
export async function alertStockLow(tx: Db, low: readonly LowStock[]): Promise<void> {
  for (const { productId, keysLeft, threshold } of low) {
    await raiseAlert(
      tx,
      'stock_low',
      String(productId),
      `Product ${productId} has ${keysLeft} licence key(s) left (threshold ${threshold}). Add keys on the Products tab.`,
    )
  }
}
