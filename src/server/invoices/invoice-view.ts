import type { ChainId, TokenSymbol } from '../../shared/chains'
import { formatCents } from '../../shared/money'
import { formatTokenUnits } from '../../shared/token-amount'
import { receivedUsdMicros } from '../../shared/trx'
import type { ChainRegistry } from '../chains/chain-registry'
import type { Db } from '../db/client'
import { heldOrderIds } from '../payments/ledger'
import { orderNetwork, remainingPaymentUri } from '../payments/order-network'
import { paymentsOfOrder } from '../payments/payment-admin'
import { acceptedShortfallMicros } from '../payments/payment-rules'
import { orderShortfall } from '../payments/shortfall'
import { confirmingAmounts } from '../payments/sightings'
import type { CreateInvoiceRequest, InvoiceData } from './greenfield-schemas'
import type { InvoiceServiceOptions } from './invoice-service'
import { invoiceStatusOf, markableStatuses } from './invoice-status'
import type { InvoiceWithOrder } from './invoices.repo'

// An invoice as Greenfield's InvoiceData: its amount, times and status all read from its order.

const MICROS_PER_CENT = 10_000n

export async function invoiceViews(
  opts: Pick<InvoiceServiceOptions, 'db' | 'rules' | 'publicUrl'>,
  rows: readonly InvoiceWithOrder[],
  storeId: string,
): Promise<InvoiceData[]> {
  const { db, rules } = opts
  const pending = rows.filter((r) => r.order.status === 'pending').map((r) => r.order)
  const [held, confirming] = await Promise.all([
    heldOrderIds(
      db,
      pending.map((o) => o.id),
    ),
    confirmingAmounts(db, pending),
  ])
  const now = new Date()
  return rows.map(({ invoice, order }) => {
    const dueMicros = BigInt(order.totalCents) * MICROS_PER_CENT
    const state = invoiceStatusOf(
      {
        status: order.status,
        cancelReason: order.cancelReason,
        late: order.late,
        windowEndsAt: order.windowEndsAt,
        receivedMicros: receivedUsdMicros(
          order.amountReceivedUnits,
          order.nativeReceivedUnits,
          order.nativeRateE8,
        ),
        dueMicros,
        held: held.has(order.id),
        confirmingMicros: BigInt(Math.round((confirming.get(order.id) ?? 0) * 1e6)),
        acceptedShortfallMicros: acceptedShortfallMicros(dueMicros, rules),
        marked: invoice.marked,
      },
      now,
    )
    const c = invoice.checkout as NonNullable<CreateInvoiceRequest['checkout']>
    return {
      id: invoice.id,
      storeId,
      amount: formatCents(order.totalCents),
      currency: invoice.currency,
      type: 'Standard' as const,
      checkoutLink: checkoutLinkOf(opts.publicUrl, invoice.id),
      createdTime: Math.floor(invoice.createdAt.getTime() / 1000),
      expirationTime: Math.floor(order.windowEndsAt.getTime() / 1000),
      monitoringExpiration: Math.floor(order.graceUntil.getTime() / 1000),
      status: state.status,
      additionalStatus: state.additionalStatus,
      availableStatusesForManualMarking: markableStatuses(state.status, order.status),
      archived: false,
      metadata: invoice.metadata,
      checkout: {
        speedPolicy: c.speedPolicy ?? null,
        paymentMethods: [paymentMethodId(order.chain, order.token)],
        defaultPaymentMethod: paymentMethodId(order.chain, order.token),
        lazyPaymentMethods: false,
        expirationMinutes: Math.round((order.windowEndsAt.getTime() - invoice.createdAt.getTime()) / 60_000),
        monitoringMinutes: Math.round((order.graceUntil.getTime() - order.windowEndsAt.getTime()) / 60_000),
        paymentTolerance: c.paymentTolerance ?? null,
        redirectURL: c.redirectURL ?? null,
        redirectAutomatically: c.redirectAutomatically ?? null,
        requiresRefundEmail: c.requiresRefundEmail ?? null,
        checkoutType: c.checkoutType ?? null,
        defaultLanguage: c.defaultLanguage ?? null,
      },
      receipt: { enabled: null, showQR: null, showPayments: null },
    }
  })
}

/** The invoice's hosted payment page: Greenfield's checkoutLink, the epusdt answer's payment_url. */
export const checkoutLinkOf = (publicUrl: string, invoiceId: string) =>
  `${publicUrl.replace(/\/+$/, '')}/invoice/${invoiceId}`

/** A payment method's Greenfield id: the token and the network, as USDT-TRON or USDC-BASE. */
export const paymentMethodId = (chain: ChainId, token: TokenSymbol) => `${token}-${chain.toUpperCase()}`

/** Decimal dollars of micro-dollars, as the answers write amounts ("12.50", "0.123456"). */
export const microsToDecimal = (micros: bigint) =>
  micros < 0n ? `-${formatTokenUnits(-micros, 6)}` : formatTokenUnits(micros, 6)

/** Greenfield's payment methods of an invoice: its one network and token, what came, what is due. */
export async function paymentMethodsOf(db: Db, chains: ChainRegistry, order: InvoiceWithOrder['order']) {
  const network = orderNetwork(chains, order)
  // Paid in part, the link asks for what is missing (rounded up to a base unit), as the payment
  // page's does: a cart that shows it again must not ask the buyer for the whole amount twice. A
  // chain whose link is the address alone (TRON's) keeps the address.
  const shortfall = await orderShortfall(db, order)
  const paymentLink =
    (shortfall && remainingPaymentUri(chains, order, BigInt(shortfall.missingUnits))) ??
    network?.payment_uri ??
    null
  const paid = receivedUsdMicros(order.amountReceivedUnits, order.nativeReceivedUnits, order.nativeRateE8)
  const due = BigInt(order.totalCents) * MICROS_PER_CENT
  const payments = (await paymentsOfOrder(db, order.id)).map((p) => ({
    id: `${p.tx_id}-${p.id}`,
    receivedDate: Math.floor(p.block_timestamp / 1000),
    value: p.amount.replace(/(\.\d\d\d*?)0+$/, '$1'),
    fee: '0',
    // Credited pays the invoice; held for review waits for the operator; any other pays nothing.
    status: (p.status === 'credited'
      ? 'Settled'
      : p.reason === 'held_for_review'
        ? 'Processing'
        : 'Invalid') as 'Settled' | 'Processing' | 'Invalid',
    destination: p.to_address,
  }))
  return [
    {
      paymentMethod: paymentMethodId(order.chain, order.token),
      cryptoCode: order.token,
      destination: order.walletAddress,
      paymentLink,
      rate: '1',
      paymentMethodPaid: microsToDecimal(paid),
      totalPaid: microsToDecimal(paid),
      // Negative when overpaid, as Greenfield writes it; nothing is due on a paid order.
      due: microsToDecimal(
        order.status !== 'pending' && order.status !== 'cancelled' && paid < due ? 0n : due - paid,
      ),
      amount: microsToDecimal(due),
      networkFee: '0',
      payments,
      activated: true,
      additionalData: {},
    },
  ]
}
