import { type ChainId, stablecoins, type TokenSymbol } from '../../shared/chains'
import { chainNames } from '../../shared/networks'
import { isPaidStatus } from '../../shared/order-status'
import {
  badAddressFor,
  type CreateRefundInput,
  fillMessage,
  microsToUnits,
  parseTokenAmount,
  refundAddressFor,
  refundMessages,
  unitsToMicrosUp,
} from '../../shared/refunds'
import { mergeSiteContent } from '../../shared/site-content'
import { formatTokenUnits } from '../../shared/token-amount'
import { sunToUsdMicros } from '../../shared/trx'
import { tableToken } from '../chains/token-table'
import { readStoredContent } from '../content/content.repo'
import type { Db } from '../db/client'
import { safeColour } from '../delivery/order-email'
import { queueMail } from '../delivery/order-mail.repo'
import { findOrder, lockOrder, type OrderRow } from '../orders/orders.repo'
import { lockPayment, paymentsOfOrder, reviewHeldOrder } from '../payments/payment-admin'
import type { PaymentRules } from '../payments/payment-rules'
import { allPoolAddresses } from '../wallets/wallets.repo'
import { renderRefundLinkEmail } from './refund-email'
import {
  findRefundByRequestKey,
  formatRefundUnits,
  insertRefund,
  lockRefund,
  newRefundLink,
  type RefundRow,
  refundedOfOrder,
  returnedPayments,
  updateRefund,
} from './refunds.repo'

// Starting a refund (of a paid order) or a return (of an unmatched transfer), and giving it the
// address to be paid: the buyer through the one-time link, or the operator. Each step is one
// transaction; the buyer's e-mail is queued in it (the mail outbox).

export interface RefundDeps {
  db: Db
  publicUrl: string
  rules: PaymentRules
}

export type RefundResult = { ok: true; refund: RefundRow; mailed: boolean } | { ok: false; error: string }

const refused = (error: string): RefundResult => ({ ok: false, error })

/** A refund must go to the buyer: never to an address of our own pool (EVM addresses in any case). */
async function isOurAddress(db: Db, address: string): Promise<boolean> {
  const wanted = address.toLowerCase()
  return (await allPoolAddresses(db)).some((a) => a.toLowerCase() === wanted)
}

/** The operator's address for a refund on this chain: in its stored form, or the refusal. */
async function operatorAddress(
  db: Db,
  chain: ChainId,
  given: string | undefined,
): Promise<{ address: string | null } | { error: string }> {
  if (!given) return { address: null }
  const address = refundAddressFor(chain, given)
  if (!address) return { error: badAddressFor(chain) }
  if (await isOurAddress(db, address)) return { error: refundMessages.ourAddress }
  return { address }
}

export async function shopFrame(db: Db) {
  const content = mergeSiteContent(await readStoredContent(db))
  return {
    shop: [content.logo.mainText, content.logo.subText].filter(Boolean).join(' '),
    colour: safeColour(content.theme.primary),
  }
}

/** Queues the e-mail with the buyer's one-time link (a new link each time). */
async function mailLink(tx: Db, deps: RefundDeps, refund: RefundRow, token: string): Promise<boolean> {
  if (!refund.email) return false
  const frame = await shopFrame(tx)
  const mail = renderRefundLinkEmail({
    ...frame,
    locale: refund.locale,
    amount: formatRefundUnits(refund, refund.amountUnits),
    token: refund.token,
    network: chainNames[refund.chain],
    order: refund.kind === 'refund' && refund.orderId ? refund.orderId.slice(0, 8) : null,
    link: `${deps.publicUrl.replace(/\/+$/, '')}/refund/${token}`,
  })
  return queueMail(tx, {
    orderId: refund.orderId,
    kind: `refund_link:${refund.id}:${refund.linkExpiresAt?.getTime() ?? 0}`,
    to: refund.email,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
  })
}

/** What an amount of a token on a chain is worth in USD micros (TRX at the order's locked rate). */
function usdMicrosOf(order: OrderRow | undefined, chain: ChainId, token: TokenSymbol, units: bigint): bigint {
  if (token === 'TRX') return order?.nativeRateE8 ? sunToUsdMicros(units, order.nativeRateE8) : 0n
  const row = tableToken(chain, token)
  return row ? unitsToMicrosUp(units, row.decimals) : 0n
}

/** The order's first credited payment in a stablecoin (or in TRX): the chain and token a refund goes back in. */
async function payerOf(db: Db, orderId: string, stable: boolean) {
  return (await paymentsOfOrder(db, orderId)).find(
    (p) => p.status === 'credited' && (stable ? stablecoins.has(p.token) : p.token === 'TRX'),
  )
}

/** The stablecoin a refund of the order is paid in: the one the buyer paid with (USDC on Base for a USDT order too). */
export async function stableTokenOfOrder(db: Db, order: OrderRow): Promise<TokenSymbol> {
  return (await payerOf(db, order.id, true))?.token ?? 'USDT'
}

/**
 * A refund of a paid order: all that is left to refund in stablecoins (or in TRX), or a part. The
 * order's stablecoins are counted in micro-dollars; the refund is paid on the chain and in the token
 * the buyer paid with (the ledger row), in that token's base units at its decimals.
 */
export async function createRefund(
  deps: RefundDeps,
  input: CreateRefundInput,
  actor: string,
): Promise<RefundResult> {
  return deps.db.transaction(async (tx) => {
    const order = await lockOrder(tx, input.p_order_id)
    if (!order) return refused(refundMessages.orderNotFound)
    // The same form sent twice (a double click, a retry) finds the refund the first one made.
    const again = await findRefundByRequestKey(tx, input.p_request_key)
    if (again) return { ok: true, refund: again, mailed: false }
    if (!isPaidStatus(order.status)) return refused(refundMessages.notPaid)
    const stable = input.p_token !== 'TRX'
    const nothing = refused(fillMessage(refundMessages.nothingInToken, { token: input.p_token }))
    const received = stable ? order.amountReceivedUnits : order.nativeReceivedUnits
    if (received <= 0n) return nothing
    const payer = await payerOf(tx, order.id, stable)
    // The refund goes back in the token the buyer paid with: another one is refused, never swapped in.
    if (payer && payer.token !== input.p_token) return nothing
    const chain = payer?.chain ?? order.chain
    const token = stable ? (payer?.token ?? input.p_token) : 'TRX'
    const tokenRow = tableToken(chain, token)
    if (!tokenRow) return nothing
    const held = await refundedOfOrder(tx, order.id)
    const left = received - (stable ? held.stable : held.trx)
    const micros = input.p_full ? left : parseTokenAmount(input.p_amount ?? '')
    if (micros === null) return refused(fillMessage(refundMessages.badAmount, { token }))
    if (micros <= 0n || micros > left)
      return refused(
        fillMessage(refundMessages.tooMuch, { token, left: formatTokenUnits(left > 0n ? left : 0n) }),
      )
    const given = await operatorAddress(tx, chain, input.p_address)
    if ('error' in given) return refused(given.error)
    const amount = microsToUnits(micros, tokenRow.decimals)
    const now = new Date()
    const link = given.address ? null : newRefundLink(now)
    const refund = await insertRefund(tx, {
      kind: 'refund',
      orderId: order.id,
      reason: input.p_reason,
      chain,
      token,
      amountUnits: amount,
      usdMicros: stable ? micros : usdMicrosOf(order, chain, token, amount),
      disableKeys: input.p_disable_keys,
      email: order.email,
      locale: order.locale,
      status: given.address ? 'ready' : 'awaiting_address',
      address: given.address,
      addressSource: given.address ? 'operator' : null,
      readyAt: given.address ? now : null,
      suggestedAddress: payer?.from_address ?? null,
      linkTokenHash: link?.linkTokenHash ?? null,
      linkExpiresAt: link?.linkExpiresAt ?? null,
      requestKey: input.p_request_key,
      createdBy: actor,
    })
    const mailed = link ? await mailLink(tx, deps, refund, link.token) : false
    return { ok: true, refund, mailed }
  })
}

/** A return of a transfer that pays no order (an overpayment, a late one, one held for review…). */
export async function createReturn(
  deps: RefundDeps,
  input: { p_payment_id: number; p_request_key: string; p_address?: string },
  actor: string,
): Promise<RefundResult> {
  const result = await deps.db.transaction(async (tx): Promise<RefundResult & { held?: string | null }> => {
    const payment = await lockPayment(tx, input.p_payment_id)
    if (!payment) return refused(refundMessages.paymentNotFound)
    const again = await findRefundByRequestKey(tx, input.p_request_key)
    if (again) return { ok: true, refund: again, mailed: false }
    if (payment.status !== 'unmatched') return refused(refundMessages.notUnmatched)
    if ((await returnedPayments(tx, [payment.id])).size > 0) return refused(refundMessages.alreadyReturned)
    const order = payment.orderId ? await findOrder(tx, payment.orderId) : undefined
    const given = await operatorAddress(tx, payment.chain, input.p_address)
    if ('error' in given) return refused(given.error)
    if (!given.address && !order) return refused(refundMessages.noEmail)
    const now = new Date()
    const link = given.address ? null : newRefundLink(now)
    const refund = await insertRefund(tx, {
      kind: 'return',
      orderId: payment.orderId,
      paymentId: payment.id,
      reason: payment.reason ?? 'unassigned',
      chain: payment.chain,
      token: payment.token,
      amountUnits: payment.amountUnits,
      usdMicros: usdMicrosOf(order, payment.chain, payment.token, payment.amountUnits),
      disableKeys: false,
      email: order?.email ?? null,
      locale: order?.locale ?? 'en',
      status: given.address ? 'ready' : 'awaiting_address',
      address: given.address,
      addressSource: given.address ? 'operator' : null,
      readyAt: given.address ? now : null,
      suggestedAddress: payment.fromAddress,
      linkTokenHash: link?.linkTokenHash ?? null,
      linkExpiresAt: link?.linkExpiresAt ?? null,
      requestKey: input.p_request_key,
      createdBy: actor,
    })
    const mailed = link ? await mailLink(tx, deps, refund, link.token) : false
    return { ok: true, refund, mailed, held: payment.reason === 'held_for_review' ? payment.orderId : null }
  })
  // A held transfer that goes back leaves the review: it will never pay the order.
  if (result.ok && result.held) await reviewHeldOrder(deps.db, result.held, 'refuse', deps.rules)
  return result
}

/** The buyer gives the address through the link (once), or the operator one the buyer sent otherwise. */
export async function setRefundAddress(
  deps: RefundDeps,
  refundId: number,
  address: string,
  source: 'buyer' | 'operator',
): Promise<RefundResult> {
  return deps.db.transaction(async (tx) => {
    const refund = await lockRefund(tx, refundId)
    if (!refund) return refused(refundMessages.refundNotFound)
    if (refund.status !== 'awaiting_address') return refused(refundMessages.notAwaitingAddress)
    const given = await operatorAddress(tx, refund.chain, address)
    if ('error' in given) return refused(given.error)
    const now = new Date()
    const updated = await updateRefund(tx, refund.id, {
      address: given.address,
      addressSource: source,
      status: 'ready',
      readyAt: now,
      // The link is spent once an address is given, whoever gave it.
      linkUsedAt: refund.linkTokenHash ? now : null,
    })
    return { ok: true, refund: updated as RefundRow, mailed: false }
  })
}

/** A new link for the buyer (the old one stops working), e-mailed. */
export async function resendRefundLink(deps: RefundDeps, refundId: number): Promise<RefundResult> {
  return deps.db.transaction(async (tx) => {
    const refund = await lockRefund(tx, refundId)
    if (!refund) return refused(refundMessages.refundNotFound)
    if (refund.status !== 'awaiting_address') return refused(refundMessages.notAwaitingAddress)
    if (!refund.email) return refused(refundMessages.noEmail)
    const { token, linkTokenHash, linkExpiresAt } = newRefundLink()
    const updated = (await updateRefund(tx, refund.id, {
      linkTokenHash,
      linkExpiresAt,
      linkUsedAt: null,
    })) as RefundRow
    const mailed = await mailLink(tx, deps, updated, token)
    return { ok: true, refund: updated, mailed }
  })
}

export async function cancelRefund(deps: RefundDeps, refundId: number): Promise<RefundResult> {
  return deps.db.transaction(async (tx) => {
    const refund = await lockRefund(tx, refundId)
    if (!refund) return refused(refundMessages.refundNotFound)
    if (refund.status === 'sent') return refused(refundMessages.notCancellable)
    if (refund.status === 'cancelled') return { ok: true, refund, mailed: false }
    const updated = await updateRefund(tx, refund.id, { status: 'cancelled', cancelledAt: new Date() })
    return { ok: true, refund: updated as RefundRow, mailed: false }
  })
}
