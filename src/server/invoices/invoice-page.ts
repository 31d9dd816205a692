import * as z from 'zod'
import {
  INVOICE_ID,
  type InvoiceBack,
  type InvoicePage,
  type InvoicePageState,
} from '../../shared/invoice-page'
import { isLocale } from '../../shared/locale'
import { centsToDollars } from '../../shared/money'
import { invoiceIdSchema } from '../../shared/order-status'
import { formatRateE8, formatSun } from '../../shared/trx'
import type { ChainRegistry } from '../chains/chain-registry'
import { orderNetwork } from '../payments/order-network'
import { defineRpc } from '../rpc'
import type { InvoiceData } from './greenfield-schemas'
import type { InvoiceService } from './invoice-service'

// The hosted payment page of an invoice (decision 062): the invoice read from its order, in the
// names the storefront's payment page reads, with the way back to the seller's site. The invoice's
// id is the page's address and all it grants: the order's payment, watched; never the order's secret.

const stateOf: Record<InvoiceData['status'], InvoicePageState> = {
  New: 'open',
  Processing: 'open',
  Settled: 'paid',
  Expired: 'expired',
  Invalid: 'invalid',
}

/** The seller's redirectURL with Greenfield's {InvoiceId} and {OrderId} filled in, and its host as the seller's name. */
export function backOf(
  checkout: InvoiceData['checkout'],
  invoiceId: string,
  externalOrderId: string | null,
): InvoiceBack | null {
  const template = checkout.redirectURL
  if (!template) return null
  const url = template
    .replaceAll('{InvoiceId}', encodeURIComponent(invoiceId))
    .replaceAll('{OrderId}', encodeURIComponent(externalOrderId ?? ''))
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null
  return { url: parsed.href, seller: parsed.hostname, automatic: checkout.redirectAutomatically === true }
}

/** The page of an invoice id as a client sent it: { found: false } for a malformed or unknown one. */
export async function invoicePage(
  invoices: InvoiceService,
  chains: ChainRegistry,
  id: string,
): Promise<InvoicePage> {
  const safeId = id.slice(0, 22)
  if (!INVOICE_ID.test(id)) return { found: false, id: safeId }
  const found = await invoices.find(id)
  if (!found) return { found: false, id }
  // The page shows no store id.
  const [view] = await invoices.views([found], '')
  if (!view) return { found: false, id }
  const { order, invoice } = found
  const network = orderNetwork(chains, order)
  const item = (invoice.metadata as { itemDesc?: unknown }).itemDesc
  return {
    found: true,
    id,
    state: stateOf[view.status],
    locale: isLocale(order.locale) ? order.locale : 'en',
    item: typeof item === 'string' && item.trim() ? item.trim().slice(0, 200) : null,
    back: backOf(view.checkout, id, invoice.externalOrderId),
    order: {
      order_id: order.id,
      email: order.email,
      wallet_address: order.walletAddress,
      total: centsToDollars(order.totalCents),
      created_at: order.createdAt.toISOString(),
      window_ends_at: order.windowEndsAt.toISOString(),
      trx_amount: order.nativeAmountUnits !== null ? formatSun(order.nativeAmountUnits) : null,
      trx_rate: order.nativeRateE8 !== null ? formatRateE8(order.nativeRateE8) : null,
      chain: order.chain,
      token: order.token,
      token_decimals: network?.token_decimals ?? null,
      amount_units: network?.amount_units ?? null,
      payment_uri: network?.payment_uri ?? null,
      watched: network?.watched ?? null,
      confirm_blocks: network?.confirm_blocks ?? null,
      confirm_seconds: network?.confirm_seconds ?? null,
    },
  }
}

/** The hosted page's data for the browser (a page it moved to, or a fresh look after a change). */
export function invoicePageRpcs(invoices: InvoiceService, chains: ChainRegistry) {
  return [
    defineRpc({
      name: 'secure_get_invoice_page',
      input: z.object({ p_invoice_id: invoiceIdSchema }).strict(),
      handler: async (input) => ({
        success: true as const,
        page: await invoicePage(invoices, chains, input.p_invoice_id),
      }),
    }),
  ]
}

/** Whether an invoice id names the invoice of this order: the hosted page's grant to watch it. */
export async function invoiceOfOrderIs(invoices: InvoiceService, invoiceId: string, orderId: string) {
  if (!INVOICE_ID.test(invoiceId)) return false
  const found = await invoices.find(invoiceId)
  return found?.order.id === orderId
}
