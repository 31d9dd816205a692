import * as z from 'zod'
import { orderIdSchema } from '../../shared/checkout'
import { chainNames } from '../../shared/networks'
import { isPaidStatus } from '../../shared/order-status'
import {
  type BuyerRefund,
  createRefundInputSchema,
  createReturnInputSchema,
  fetchRefundsInputSchema,
  openRefundInputSchema,
  REFUND_LINK_TOKEN,
  refundIdInputSchema,
  refundMessages,
  setRefundAddressInputSchema,
  submitRefundAddressInputSchema,
  verifyRefundInputSchema,
} from '../../shared/refunds'
import { adminKeyField } from '../../shared/rpc'
import { formatTokenUnits } from '../../shared/token-amount'
import { adminActorOf } from '../admin/admin-auth'
import { onSuccess } from '../audit/audit-log'
import type { Db } from '../db/client'
import { AppError } from '../errors'
import { refusal, refused } from '../i18n/refusals'
import { rateLimitKey } from '../lib/client-address'
import type { Signal } from '../lib/signal'
import { createWindowLimiter } from '../lib/window-limiter'
import { findOrder } from '../orders/orders.repo'
import { explorerTxUrlOf } from '../payments/order-payment'
import type { PaymentRules } from '../payments/payment-rules'
import { defineRpc } from '../rpc'
import { type RefundChains, readyChainTime } from './refund-proof'
import {
  cancelRefund,
  createRefund,
  createReturn,
  type RefundResult,
  resendRefundLink,
  setRefundAddress,
  stableTokenOfOrder,
} from './refund-requests'
import { verifyRefundByHash } from './refund-verify'
import {
  findRefundByLink,
  formatRefundUnits,
  listRefunds,
  type RefundRow,
  refundedOfOrder,
  refundsOfOrder,
  toAdminRefund,
} from './refunds.repo'

// The refunds' calls: the operator's (start, address, link, cancel, verify, list) and the buyer's
// page behind the one-time link (/refund/{token}).

export interface RefundRpcDeps {
  db: Db
  /** The enabled chains: a refund is proven on its own. */
  chains: RefundChains
  publicUrl: string
  rules: PaymentRules
  /** A mail went into the outbox: wakes the mail worker. */
  mailQueued: Signal<void>
}

const HASH_CHECK_DEADLINE_MS = 15_000

const HEAD_READ_DEADLINE_MS = 5_000

/**
 * A refund that has just become ready reads the chain's own time now (decision 060), bounded: when
 * no provider answers in time, the watch's next look reads it.
 */
async function noteReadyOnChain(deps: RefundRpcDeps, refund: RefundRow): Promise<void> {
  if (refund.status !== 'ready' || refund.readyChainAt) return
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<null>((resolve) => {
    timer = setTimeout(resolve, HEAD_READ_DEADLINE_MS, null)
  })
  const read = readyChainTime(deps.db, deps.chains, refund).catch(() => null)
  await Promise.race([read, deadline]).finally(() => clearTimeout(timer))
}

async function answer(result: RefundResult, deps: RefundRpcDeps) {
  if (!result.ok) return { success: false as const, error: result.error }
  if (result.mailed) deps.mailQueued.emit()
  await noteReadyOnChain(deps, result.refund)
  return { success: true as const, refund: toAdminRefund(result.refund, deps.chains) }
}

function buyerView(row: RefundRow): BuyerRefund {
  return {
    amount: formatRefundUnits(row, row.amountUnits),
    token: row.token,
    network: chainNames[row.chain],
    status: row.status,
    order_ref: row.kind === 'refund' && row.orderId ? row.orderId.slice(0, 8) : null,
    suggested_address: row.suggestedAddress,
    address: row.address,
    tx_url: row.txId ? explorerTxUrlOf(row.chain, row.txId) : null,
    link_expires_at: row.linkExpiresAt?.toISOString() ?? null,
  }
}

export function refundRpcs(deps: RefundRpcDeps) {
  return [...adminRefundRpcs(deps), ...buyerRefundRpcs(deps)]
}

/** The operator's calls: list, start, address, resend, cancel, check a hash. */
function adminRefundRpcs(deps: RefundRpcDeps) {
  const { db, mailQueued } = deps
  const refundTarget = (r: Record<string, unknown>) => (r.refund as { id?: number } | undefined)?.id ?? null
  return [
    defineRpc({
      name: 'secure_fetch_refunds',
      input: fetchRefundsInputSchema,
      admin: true,
      handler: async (input) => ({
        success: true,
        refunds: (input.p_order_id ? await refundsOfOrder(db, input.p_order_id) : await listRefunds(db)).map(
          (row) => toAdminRefund(row, deps.chains),
        ),
      }),
    }),
    defineRpc({
      name: 'secure_fetch_refundable',
      input: z.object({ ...adminKeyField, p_order_id: orderIdSchema }).strict(),
      admin: true,
      handler: async (input) => {
        const order = await findOrder(db, input.p_order_id)
        if (!order) throw new AppError('not_found', refundMessages.orderNotFound)
        const held = await refundedOfOrder(db, order.id)
        const left = (received: bigint, h: bigint) => formatTokenUnits(received > h ? received - h : 0n)
        return {
          success: true,
          paid: isPaidStatus(order.status),
          stable_token: await stableTokenOfOrder(db, order),
          usdt: left(order.amountReceivedUnits, held.stable),
          trx: left(order.nativeReceivedUnits, held.trx),
        }
      },
    }),
    defineRpc({
      name: 'secure_create_refund',
      input: createRefundInputSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ input, result, actor }) => ({
          action: 'refund_create',
          actor,
          target: input.p_order_id,
          details: {
            refund_id: refundTarget(result),
            token: input.p_token,
            amount: (result.refund as { amount?: string }).amount,
            reason: input.p_reason,
            disable_keys: input.p_disable_keys,
            address_by_operator: input.p_address ?? null,
          },
        })),
      },
      handler: async (input, ctx) => answer(await createRefund(deps, input, adminActorOf(ctx)), deps),
    }),
    defineRpc({
      name: 'secure_create_return',
      input: createReturnInputSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ input, result, actor }) => ({
          action: 'refund_create',
          actor,
          target: `payment:${input.p_payment_id}`,
          details: {
            refund_id: refundTarget(result),
            return: true,
            address_by_operator: input.p_address ?? null,
          },
        })),
      },
      handler: async (input, ctx) => answer(await createReturn(deps, input, adminActorOf(ctx)), deps),
    }),
    defineRpc({
      name: 'secure_set_refund_address',
      input: setRefundAddressInputSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ input, actor }) => ({
          action: 'refund_address',
          actor,
          target: input.p_refund_id,
          details: { address: input.p_address },
        })),
      },
      handler: async (input) =>
        answer(await setRefundAddress(deps, input.p_refund_id, input.p_address, 'operator'), deps),
    }),
    defineRpc({
      name: 'secure_resend_refund_link',
      input: refundIdInputSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ input, actor }) => ({
          action: 'refund_link',
          actor,
          target: input.p_refund_id,
        })),
      },
      handler: async (input) => answer(await resendRefundLink(deps, input.p_refund_id), deps),
    }),
    defineRpc({
      name: 'secure_cancel_refund',
      input: refundIdInputSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ input, actor }) => ({
          action: 'refund_cancel',
          actor,
          target: input.p_refund_id,
        })),
      },
      handler: async (input) => answer(await cancelRefund(deps, input.p_refund_id), deps),
    }),
    defineRpc({
      name: 'secure_verify_refund',
      input: verifyRefundInputSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ input, actor }) => ({
          action: 'refund_verify',
          actor,
          target: input.p_refund_id,
          details: { tx_id: input.p_transaction_hash },
        })),
      },
      handler: async (input) => {
        const result = await verifyRefundByHash(
          db,
          deps.chains,
          input.p_refund_id,
          input.p_transaction_hash,
          AbortSignal.timeout(HASH_CHECK_DEADLINE_MS),
        )
        if (!result.ok) return { success: false, error: result.error }
        mailQueued.emit()
        return { success: true, refund: toAdminRefund(result.refund, deps.chains) }
      },
    }),
  ]
}

/** The buyer's page: opening shows the refund while the link is good; giving the address spends it. */
function buyerRefundRpcs(deps: RefundRpcDeps) {
  const { db } = deps
  const failures = createWindowLimiter({ limit: 20, windowMs: 10 * 60_000 })
  return [
    defineRpc({
      name: 'secure_open_refund',
      input: openRefundInputSchema,
      handler: async (input, { request }) => {
        const wait = failures.hit(rateLimitKey(request))
        if (wait > 0) throw AppError.rateLimited(refusal('tooManyRequests'), wait)
        const row = REFUND_LINK_TOKEN.test(input.p_token)
          ? await findRefundByLink(db, input.p_token)
          : undefined
        if (row?.status !== 'awaiting_address') return refused('refunds.linkInvalid')
        failures.refund(rateLimitKey(request))
        return { success: true, refund: buyerView(row) }
      },
    }),
    defineRpc({
      name: 'secure_submit_refund_address',
      input: submitRefundAddressInputSchema,
      handler: async (input, { request }) => {
        const wait = failures.hit(rateLimitKey(request))
        if (wait > 0) throw AppError.rateLimited(refusal('tooManyRequests'), wait)
        const row = REFUND_LINK_TOKEN.test(input.p_token)
          ? await findRefundByLink(db, input.p_token)
          : undefined
        if (!row) return refused('refunds.linkInvalid')
        // The page sends the network it showed: an address meant for another network is refused.
        const network = chainNames[row.chain]
        if (input.p_network !== network)
          return refused('refunds.wrongNetwork', { network, given: input.p_network })
        const result = await setRefundAddress(deps, row.id, input.p_address, 'buyer')
        if (!result.ok) {
          // The buyer's refusals by id; an address taken meanwhile reads as a used link.
          if (result.error === refundMessages.ourAddress) return refused('refunds.ourAddress')
          if (result.error === refundMessages.notAwaitingAddress) return refused('refunds.linkInvalid')
          return { success: false, error: result.error }
        }
        failures.refund(rateLimitKey(request))
        await noteReadyOnChain(deps, result.refund)
        return { success: true, refund: buyerView(result.refund) }
      },
    }),
  ]
}
