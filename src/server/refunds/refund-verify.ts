import { inArray } from 'drizzle-orm'
import { chainNames } from '../../shared/networks'
import { fillMessage, refundMessages } from '../../shared/refunds'
import type { Db } from '../db/client'
import { refunds } from '../db/schema'
import { queueMail } from '../delivery/order-mail.repo'
import { disableKeysOfOrder } from '../keys/licence-state'
import { lockOrder, setOrderStatus } from '../orders/orders.repo'
import { explorerTxUrlOf } from '../payments/order-payment'
import { recordOrderEvent } from '../webhooks/events'
import { renderRefundSentEmail } from './refund-email'
import { chainOf, type RefundChains, readTransaction, readyChainTime, transfersTo } from './refund-proof'
import { shopFrame } from './refund-requests'
import {
  findRefund,
  formatRefundUnits,
  keepsKeysOf,
  type RefundRow,
  readyRefunds,
  sentOfOrder,
  updateRefund,
} from './refunds.repo'

// Proving a refund on the chain: the operator's transaction hash, checked (token, recipient,
// amount, success, finality, time), or the watch that finds a final transfer of the token to the
// address of at least the amount, made after the refund became ready (on the chain's clock: in a
// block after the chain's head block at ready, decision 060). Either way the refund is
// marked sent in one transaction with everything that follows: the order's status, the buyer's
// e-mail (the outbox), the order.refunded webhook. A transaction proves one refund only.

export interface Proof {
  txId: string
  from: string
  amountUnits: bigint
  blockTimestamp: number
  by: 'watch' | 'hash'
}

export type SentResult = { ok: true; refund: RefundRow } | { ok: false; error: string }

const isUniqueViolation = (error: unknown): boolean => {
  const e = error as { code?: string; cause?: { code?: string } }
  return e?.code === '23505' || e?.cause?.code === '23505'
}

/** Marks a ready refund sent with its proof, and does what follows, all in one transaction. */
export async function markRefundSent(db: Db, refundId: number, proof: Proof): Promise<SentResult> {
  try {
    return await db.transaction(async (tx): Promise<SentResult> => {
      const [claimed] = await tx
        .select({ id: refunds.id })
        .from(refunds)
        .where(inArray(refunds.txId, [proof.txId]))
      if (claimed) return { ok: false, error: refundMessages.txUsed }
      const refund = await findRefund(tx, refundId)
      if (refund?.status !== 'ready' || !refund.address) return { ok: false, error: refundMessages.notReady }
      // Lock the order first (every path that changes an order does), then the refund.
      const order = refund.orderId ? await lockOrder(tx, refund.orderId) : undefined
      const sent = await updateRefund(tx, refund.id, {
        status: 'sent',
        sentAt: new Date(),
        txId: proof.txId,
        txFrom: proof.from,
        txAmountUnits: proof.amountUnits,
        txBlockTimestamp: proof.blockTimestamp,
        verifiedBy: proof.by,
      })
      if (!sent) return { ok: false, error: refundMessages.notReady }
      if (order && refund.kind === 'refund') {
        const paidBack = await sentOfOrder(tx, order.id)
        const whole =
          paidBack.stable >= order.amountReceivedUnits && paidBack.trx >= order.nativeReceivedUnits
        await setOrderStatus(tx, order.id, whole ? 'refunded' : 'partially_refunded')
        // A fully refunded order's keys stop working, unless the operator unticked it on a refund of it.
        const keysDisabled = whole && (await keepsKeysOf(tx, order.id)) === false
        if (keysDisabled) await disableKeysOfOrder(tx, order.id, 'refunded')
        await recordOrderEvent(tx, 'order.refunded', order.id, {
          refund: {
            id: sent.id,
            token: sent.token,
            amount_units: sent.amountUnits.toString(),
            amount: formatRefundUnits(sent, sent.amountUnits),
            address: sent.address,
            tx_id: proof.txId,
            reason: sent.reason,
            fully_refunded: whole,
            keys_disabled: keysDisabled,
          },
        })
      }
      if (sent.email) {
        const txUrl = explorerTxUrlOf(sent.chain, proof.txId)
        const mail = renderRefundSentEmail({
          ...(await shopFrame(tx)),
          locale: sent.locale,
          amount: formatRefundUnits(sent, sent.amountUnits),
          token: sent.token,
          network: chainNames[sent.chain],
          order: sent.kind === 'refund' && sent.orderId ? sent.orderId.slice(0, 8) : null,
          address: sent.address as string,
          txUrl,
        })
        // One per refund, whichever process proved it: the outbox keeps one mail of a kind per order.
        await queueMail(tx, {
          orderId: sent.orderId,
          kind: `refund_sent:${sent.id}`,
          to: sent.email,
          subject: mail.subject,
          html: mail.html,
          text: mail.text,
        })
      }
      return { ok: true, refund: sent }
    })
  } catch (error) {
    // Another refund took this transaction at the same moment (refunds_tx_uq).
    if (isUniqueViolation(error)) return { ok: false, error: refundMessages.txUsed }
    throw error
  }
}

/** The operator's hash: checked on the chain, with exactly what does not match. */
export async function verifyRefundByHash(
  db: Db,
  chains: RefundChains,
  refundId: number,
  rawHash: string,
  signal?: AbortSignal,
): Promise<SentResult> {
  const refund = await findRefund(db, refundId)
  if (!refund) return { ok: false, error: refundMessages.refundNotFound }
  if (refund.status !== 'ready' || !refund.address || !refund.readyAt)
    return { ok: false, error: refundMessages.notReady }
  const adapter = chainOf(chains, refund.chain)
  if (!adapter) return { ok: false, error: refundMessages.explorerDown }
  const hash = adapter.normalizeTxHash(rawHash)
  if (!hash) return { ok: false, error: refundMessages.txNotFound }
  const [claimed] = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(inArray(refunds.txId, [hash]))
  if (claimed) return { ok: false, error: refundMessages.txUsed }
  const proof = await readTransaction(adapter, hash, signal)
  if (proof.kind === 'error') return { ok: false, error: refundMessages.explorerDown }
  if (proof.kind === 'not_found') return { ok: false, error: refundMessages.txNotFound }
  if (proof.kind === 'not_final') return { ok: false, error: refundMessages.txNotFinal }
  const token = refund.token
  if (!proof.success)
    return { ok: false, error: fillMessage(refundMessages.txFailed, { result: proof.result ?? 'FAILED' }) }
  const ofToken = proof.transfers.filter((t) => t.token === token)
  if (ofToken.length === 0) return { ok: false, error: fillMessage(refundMessages.txWrongToken, { token }) }
  const toAddress = ofToken.filter((t) => t.to === refund.address)
  if (toAddress.length === 0) {
    const to = ofToken[0]?.to ?? ''
    return {
      ok: false,
      error: fillMessage(refundMessages.txWrongRecipient, { token, to, address: refund.address }),
    }
  }
  const sent = toAddress.reduce((sum, t) => sum + t.value, 0n)
  if (sent < refund.amountUnits) {
    return {
      ok: false,
      error: fillMessage(refundMessages.txTooLittle, {
        sent: formatRefundUnits(refund, sent),
        amount: formatRefundUnits(refund, refund.amountUnits),
        token,
      }),
    }
  }
  // Made after ready on the chain's own clock: in a block after the head block at ready.
  const readyOnChain = await readyChainTime(db, chains, refund)
  if (readyOnChain === null) return { ok: false, error: refundMessages.explorerDown }
  if (proof.blockTimestamp <= readyOnChain)
    return {
      ok: false,
      error: fillMessage(refundMessages.txTooEarly, { ready: new Date(readyOnChain).toISOString() }),
    }
  return markRefundSent(db, refund.id, {
    txId: hash,
    from: toAddress[0]?.from ?? '',
    amountUnits: sent,
    blockTimestamp: proof.blockTimestamp,
    by: 'hash',
  })
}

/**
 * One look at the chain for every ready refund: the first final transfer of its token to its
 * address, of at least its amount, made since it became ready and proving no other refund. Answers
 * the refunds marked sent.
 */
export async function watchRefundsOnce(db: Db, chains: RefundChains): Promise<RefundRow[]> {
  const done: RefundRow[] = []
  for (const refund of await readyRefunds(db)) {
    const adapter = chainOf(chains, refund.chain)
    if (!refund.address || !adapter) continue
    // From the first block after the head block at ready, on the chain's own clock (decision 060).
    const readyOnChain = await readyChainTime(db, chains, refund)
    if (readyOnChain === null) continue
    const found = await transfersTo(adapter, refund.address, refund.token, readyOnChain + 1)
    if (!found) continue
    const candidates = found.filter((t) => t.value >= refund.amountUnits)
    if (candidates.length === 0) continue
    const used = new Set(
      (
        await db
          .select({ txId: refunds.txId })
          .from(refunds)
          .where(
            inArray(
              refunds.txId,
              candidates.map((t) => t.txId),
            ),
          )
      ).map((r) => r.txId),
    )
    const transfer = candidates.find((t) => !used.has(t.txId))
    if (!transfer) continue
    const result = await markRefundSent(db, refund.id, {
      txId: transfer.txId,
      from: transfer.from,
      amountUnits: transfer.value,
      blockTimestamp: transfer.blockTimestamp,
      by: 'watch',
    })
    if (result.ok) done.push(result.refund)
  }
  return done
}
