import { createHash } from 'node:crypto'
import { familyOfChain } from '../../shared/chains'
import { centsToDollars, formatCents, formatUsd, microsToDollars } from '../../shared/money'
import {
  confirmTransactionInputSchema,
  isPaidStatus,
  orderStatusInputSchema,
  STATUS_WAIT_MS,
} from '../../shared/order-status'
import type { Shortfall } from '../../shared/token-amount'
import { receivedUsdMicros } from '../../shared/trx'
import type { ChainRegistry } from '../chains/chain-registry'
import type { Database } from '../db/client'
import { AppError } from '../errors'
import { refusal, refused } from '../i18n/refusals'
import { rateLimitKey } from '../lib/client-address'
import { createWindowLimiter } from '../lib/window-limiter'
import { limitedOrderStatus, orderSecretMatches } from '../orders/order-secret'
import { findOrder, type OrderRow } from '../orders/orders.repo'
import { defineRpc } from '../rpc'
import { confirmTransfersOfTransaction } from './confirm-transaction'
import { paysOrder } from './ledger'
import { remainingPaymentUri } from './order-network'
import type { OrderWatch } from './order-watch'
import type { PaymentRules } from './payment-rules'
import type { PaymentDelay } from './payments-health'
import { orderShortfall } from './shortfall'
import { orderSightings } from './sightings'

/**
 * How long a buyer's confirm call may wait for the explorer. The buyer is told within 15 s; the rest
 * is left for the database work after the last answer.
 */
export const CONFIRM_EXPLORER_DEADLINE_MS = 12_000

function receivedMicros(order: OrderRow): bigint {
  return receivedUsdMicros(order.amountReceivedUnits, order.nativeReceivedUnits, order.nativeRateE8)
}

export interface PaymentsRpcOptions {
  rules: PaymentRules
  /** Tells a buyer waiting for detection that it lags. */
  delay: PaymentDelay
  /** Told after an order is paid here (wakes the mail worker). */
  onPaid?: (orderId: string) => void
  /**
   * Told when a buyer's hash names a final transfer the chain's follower has not reached yet: wakes
   * an idle follower, which records it within seconds rather than at its idle pace.
   */
  onFollowerBehind?: () => void
  /** Wakes a waiting status call (the long poll) when its order's news arrives. */
  watch?: OrderWatch
  /** The chain's block time, for the buyer's "seconds left". Default 3000. */
  blockIntervalMs?: number
  /** Whether an invoice id names this order's invoice (its hosted page watches the order with it). */
  invoiceOfOrder?: (invoiceId: string, orderId: string) => Promise<boolean>
}

/** A waiting status call looks at the database again this often: news from another process. */
const STATUS_RECHECK_MS = 3_000

export function paymentsRpcs(database: Database, chains: ChainRegistry, opts: PaymentsRpcOptions) {
  const { db } = database
  // Each confirm call can cost the explorer four requests: one client may try ten a minute.
  const confirmLimiter = createWindowLimiter({ limit: 10, windowMs: 60_000 })

  // The dashboard token goes only to the browser that placed the order (it holds the order secret).
  const paidAnswer = (o: OrderRow, hash: string, secret: string | undefined) => ({
    success: true as const,
    access_token: orderSecretMatches(o, secret) ? (o.accessToken ?? '') : '',
    amount: microsToDollars(receivedMicros(o)),
    hash: o.txHash ?? hash,
    timestamp: o.paidAt?.getTime() ?? Date.now(),
  })

  // A buyer paid in part scans the page's QR code again for the rest: it asks for what is missing.
  const withRemainingLink = (order: OrderRow, shortfall: Shortfall | null) =>
    shortfall && {
      ...shortfall,
      paymentUri: remainingPaymentUri(chains, order, BigInt(shortfall.missingUnits)),
    }

  async function statusOf(orderId: string, secret: string | undefined, invoiceId: string | undefined) {
    const order = await findOrder(db, orderId)
    if (!order) return refused('confirm.unknownOrder')
    const owner = orderSecretMatches(order, secret)
    const invoicePage =
      !owner && invoiceId !== undefined && (await opts.invoiceOfOrder?.(invoiceId, order.id)) === true
    if (!owner && !invoicePage) return limitedOrderStatus(order)
    const paid = isPaidStatus(order.status)
    const answer = {
      success: true as const,
      order_id: order.id,
      status: order.status,
      total: centsToDollars(order.totalCents),
      amount_received: microsToDollars(receivedMicros(order)),
      tx_hash: order.txHash,
      // The dashboard (and its refunds) stays the placing browser's: an invoice's page never gets it.
      access_token: paid && owner ? order.accessToken : null,
      window_ends_at: order.windowEndsAt.toISOString(),
      grace_until: order.graceUntil.toISOString(),
      paid_at: order.paidAt?.toISOString() ?? null,
      late: order.late,
      detection_delayed: order.status === 'pending' && (await opts.delay.delayed(order.chain)),
      sightings: await orderSightings(
        db,
        order,
        opts.rules,
        (chain) => chains.get(chain)?.blockIntervalMs ?? opts.blockIntervalMs ?? 3000,
      ),
      shortfall: withRemainingLink(order, await orderShortfall(db, order)),
    }
    const version = createHash('sha256').update(JSON.stringify(answer)).digest('hex').slice(0, 16)
    return { ...answer, version }
  }

  return [
    defineRpc({
      name: 'secure_get_order_status',
      input: orderStatusInputSchema,
      handler: async (input) => {
        const deadline = Date.now() + STATUS_WAIT_MS
        for (;;) {
          const answer = await statusOf(input.p_order_id, input.p_order_secret, input.p_invoice_id)
          const known = input.p_known_version
          if (!known || !('version' in answer) || answer.version !== known) return answer
          const left = deadline - Date.now()
          if (left <= 0) return answer
          await opts.watch?.wait(input.p_order_id, Math.min(left, STATUS_RECHECK_MS))
          if (!opts.watch) await new Promise((r) => setTimeout(r, Math.min(left, STATUS_RECHECK_MS)))
        }
      },
    }),
    defineRpc({
      name: 'secure_confirm_transaction',
      input: confirmTransactionInputSchema,
      handler: async (input, { request }) => {
        const wait = confirmLimiter.hit(rateLimitKey(request))
        if (wait > 0) throw AppError.rateLimited(refusal('tooManyAttempts'), wait)
        const order = await findOrder(db, input.p_order_id)
        if (!order) return refused('confirm.unknownOrder')
        // The chain the buyer says they paid on (default the order's): one of its family's, enabled.
        const chainId = input.p_chain ?? order.chain
        const chain = chains.get(chainId)
        if (!chain || familyOfChain[chainId] !== familyOfChain[order.chain])
          return refused('confirm.notForOrder')
        const hash = chain.normalizeTxHash(input.p_transaction_hash)
        if (!hash) return refused('confirm.notFound')

        // An explorer that paused us for longer than the buyer can wait: say so now. The follower
        // keeps watching the order either way.
        if (chain.providers.pausedUntil() > Date.now() + CONFIRM_EXPLORER_DEADLINE_MS) {
          return refused('confirm.explorerDown')
        }
        // The server asks the chain itself; p_amount and p_timestamp are never trusted.
        const result = await confirmTransfersOfTransaction(
          db,
          chain,
          hash,
          order,
          opts.rules,
          AbortSignal.timeout(CONFIRM_EXPLORER_DEADLINE_MS),
        )
        if (result.kind === 'refused') {
          if (result.reason === 'confirming') opts.onFollowerBehind?.()
          return refused(`confirm.${result.reason}`)
        }
        for (const id of result.paid) opts.onPaid?.(id)
        if (result.held) return refused('confirm.held')
        const now = (await findOrder(db, order.id)) ?? order
        if (isPaidStatus(now.status) && now.accessToken) {
          // Asking again about a transfer that paid this order answers as before.
          if (await paysOrder(db, hash, order.id, chain.chain))
            return paidAnswer(now, hash, input.p_order_secret)
          return refused('confirm.notAwaiting')
        }
        if (result.creditedHere) {
          // Said in the order's token, received rounded down (what is missing is never rounded away).
          const short = await orderShortfall(db, now)
          return refused('confirm.underpaid', {
            received: short
              ? `${short.received} ${short.token}`
              : formatUsd(microsToDollars(receivedMicros(now))),
            total: short
              ? `${formatCents(now.totalCents)} ${short.token}`
              : formatUsd(centsToDollars(now.totalCents)),
          })
        }
        if (result.reachedOrder) return refused('confirm.notAwaiting')
        return refused('confirm.notForOrder')
      },
    }),
  ]
}
