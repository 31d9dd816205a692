import { and, eq, isNotNull, sql } from 'drizzle-orm'
import { formatUsd, microsToDollars } from '../../shared/money'
import {
  confirmMessages,
  confirmTransactionInputSchema,
  orderStatusInputSchema,
} from '../../shared/order-status'
import { receivedUsdMicros } from '../../shared/trx'
import type { Database } from '../db/client'
import { orders, payments } from '../db/schema'
import type { FulfilContext } from '../delivery/fulfil-order'
import { AppError } from '../errors'
import { createWindowLimiter } from '../lib/window-limiter'
import { limitedOrderStatus, orderSecretMatches } from '../orders/order-secret'
import { defineRpc } from '../rpc'
import { creditTransfers, type SeenTransfer } from './credit-order'
import type { TronClient } from './tron-client'

const WATCH_MS = 20_000

type OrderRow = typeof orders.$inferSelect

function receivedMicros(order: OrderRow): bigint {
  return receivedUsdMicros(order.amountReceivedUnits, order.trxReceivedSun, order.trxRateE8)
}

export interface PaymentsRpcOptions {
  toleranceMicros: bigint
  fulfil: FulfilContext
  /** Told after an order is paid here (wakes the mail worker). */
  onPaid?: (orderId: string) => void
}

export function paymentsRpcs(database: Database, client: TronClient, opts: PaymentsRpcOptions) {
  const { db } = database
  // Each confirm call can cost the explorer three requests: one client may try ten a minute.
  const confirmLimiter = createWindowLimiter({ limit: 10, windowMs: 60_000 })

  return [
    defineRpc({
      name: 'secure_get_order_status',
      input: orderStatusInputSchema,
      handler: async (input) => {
        // A buyer is looking at this order: the watcher polls it first (written at most every 10 s).
        await db
          .update(orders)
          .set({ watchedUntil: sql`now() + ${WATCH_MS} * interval '1 millisecond'` })
          .where(
            and(
              eq(orders.id, input.p_order_id),
              eq(orders.status, 'pending'),
              sql`(${orders.watchedUntil} is null or ${orders.watchedUntil} < now() + interval '10 seconds')`,
            ),
          )
        const [order] = await db.select().from(orders).where(eq(orders.id, input.p_order_id))
        if (!order) return { success: false, error: confirmMessages.unknownOrder }
        if (!orderSecretMatches(order, input.p_order_secret)) return limitedOrderStatus(order)
        const paid = order.status === 'paid' || order.status === 'completed'
        return {
          success: true,
          order_id: order.id,
          status: order.status,
          total: order.totalCents / 100,
          amount_received: microsToDollars(receivedMicros(order)),
          tx_hash: order.txHash,
          access_token: paid ? order.accessToken : null,
          expires_at: order.expiresAt.toISOString(),
          grace_until: order.graceUntil.toISOString(),
          paid_at: order.paidAt?.toISOString() ?? null,
          late: order.late,
        }
      },
    }),
    defineRpc({
      name: 'secure_confirm_transaction',
      input: confirmTransactionInputSchema,
      handler: async (input, { request }) => {
        const wait = confirmLimiter.hit(request.ip)
        if (wait > 0) {
          throw AppError.rateLimited(confirmMessages.tooMany, wait)
        }
        const hash = input.p_transaction_hash.replace(/^0x/, '').toLowerCase()
        const [order] = await db.select().from(orders).where(eq(orders.id, input.p_order_id))
        if (!order) return { success: false, error: confirmMessages.unknownOrder }

        const paidAnswer = (o: OrderRow) => ({
          success: true as const,
          access_token: orderSecretMatches(o, input.p_order_secret) ? (o.accessToken ?? '') : '',
          amount: microsToDollars(receivedMicros(o)),
          hash: o.txHash ?? hash,
          timestamp: o.paidAt?.getTime() ?? Date.now(),
        })
        if (order.status !== 'pending') {
          // Asking again about a transfer that already paid this order answers as before.
          const [mine] = await db
            .select({ id: payments.id })
            .from(payments)
            .where(and(eq(payments.txId, hash), eq(payments.orderId, order.id)))
          if (mine && order.accessToken) return paidAnswer(order)
          return { success: false, error: confirmMessages.notAwaiting }
        }

        const [usedElsewhere] = await db
          .select({ orderId: payments.orderId })
          .from(payments)
          .where(and(eq(payments.txId, hash), isNotNull(payments.orderId)))
        if (usedElsewhere && usedElsewhere.orderId !== order.id) {
          return { success: false, error: confirmMessages.alreadyUsed }
        }

        // The server asks the chain itself; p_amount and p_timestamp are never trusted.
        const seen = await fetchTransfers(client, hash, order.walletAddress, order.trxRateE8 !== null)
        if (seen.kind !== 'ok') return { success: false, error: confirmMessages[seen.kind] }

        const outcome = await creditTransfers(db, order.id, seen.transfers, opts)
        if (outcome.kind === 'paid') {
          opts.onPaid?.(order.id)
          const [updated] = await db.select().from(orders).where(eq(orders.id, order.id))
          return paidAnswer(updated ?? order)
        }
        if (outcome.kind === 'pending') {
          if (outcome.credited.length === 0 && !(await paysOrder(hash, order.id))) {
            return { success: false, error: confirmMessages.notForOrder }
          }
          return {
            success: false,
            error: confirmMessages.underpaid(
              formatUsd(microsToDollars(outcome.receivedMicros)),
              formatUsd(order.totalCents / 100),
            ),
          }
        }
        // Paid meanwhile (by the watcher, perhaps with this very transfer): answer as for a paid order.
        const [now] = await db.select().from(orders).where(eq(orders.id, order.id))
        if (now?.accessToken && (await paysOrder(hash, order.id))) return paidAnswer(now)
        return { success: false, error: confirmMessages.notAwaiting }
      },
    }),
  ]

  async function paysOrder(hash: string, orderId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.txId, hash), eq(payments.orderId, orderId)))
    return Boolean(row)
  }
}

type FetchResult =
  | { kind: 'ok'; transfers: SeenTransfer[] }
  | { kind: 'notFound' | 'notConfirmed' | 'failed' | 'notForOrder' | 'explorerDown' }

/** One transaction from the solidity node: USDT Transfer logs, or a native TRX transfer, to the address. */
async function fetchTransfers(
  client: TronClient,
  hash: string,
  address: string,
  acceptsTrx: boolean,
): Promise<FetchResult> {
  const info = await client.getTransactionInfo(hash, { solidified: true })
  if (info.status === 'error') return { kind: 'explorerDown' }
  if (!info.found) {
    const head = await client.getTransactionInfo(hash, { solidified: false })
    if (head.status === 'error') return { kind: 'explorerDown' }
    return { kind: head.found ? 'notConfirmed' : 'notFound' }
  }
  const blockTimestamp = info.blockTimestamp ?? 0
  const usdt = info.transfers.filter((t) => t.contract === client.usdtContract && t.to === address)
  if (usdt.length > 0) {
    if (!info.receiptOk) return { kind: 'failed' }
    return {
      kind: 'ok',
      transfers: usdt.map((t) => ({
        txId: hash,
        token: 'USDT',
        from: t.from,
        to: t.to,
        value: t.value,
        blockTimestamp,
      })),
    }
  }
  if (!acceptsTrx || info.contractAddress !== null) return { kind: info.receiptOk ? 'notForOrder' : 'failed' }
  const details = await client.getTransaction(hash, { solidified: true })
  if (details.status === 'error') return { kind: 'explorerDown' }
  if (!details.found || !details.trx || details.trx.to !== address) return { kind: 'notForOrder' }
  if (details.contractRet !== 'SUCCESS') return { kind: 'failed' }
  const { from, to, value } = details.trx
  return { kind: 'ok', transfers: [{ txId: hash, token: 'TRX', from, to, value, blockTimestamp }] }
}
