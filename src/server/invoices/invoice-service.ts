import { type ChainId, chainIds, stablecoins, type TokenSymbol, tokenSymbols } from '../../shared/chains'
import type { CreateOrderAnswer, CreateOrderInput } from '../../shared/checkout'
import type { Locale } from '../../shared/locale'
import { formatCents } from '../../shared/money'
import { updateOrderStatus } from '../admin/order-admin'
import type { ChainRegistry } from '../chains/chain-registry'
import type { Db } from '../db/client'
import { createOrderPlacer } from '../orders/order-batcher'
import { priceCart } from '../orders/order-pricing'
import { chooseNetwork } from '../payments/order-network'
import type { PaymentRules } from '../payments/payment-rules'
import type { RateResult } from '../pricing/trx-price'
import { amountToCents, type CreateInvoiceRequest, invoiceCurrencies } from './greenfield-schemas'
import { invoiceViews, paymentMethodId } from './invoice-view'
import {
  findInvoice,
  type InvoiceInsert,
  type InvoiceWithOrder,
  insertInvoice,
  newInvoiceId,
  OpenInvoiceExists,
  openInvoiceOf,
  setInvoiceMarked,
} from './invoices.repo'

// Invoices of the API: each one is an order of the shop placed through the orders module's placer
// (an amount order, decision 055, or one of catalogue products, 063), its address leased from the
// pool like any checkout's, and its invoice row written in the same transaction. Everything the
// answers say is read from the order.

export interface InvoiceServiceOptions {
  db: Db
  chains: ChainRegistry
  rules: PaymentRules
  trxRate: () => Promise<RateResult>
  /** The shop's public address: the checkout links start with it. */
  publicUrl: string
  /** The embedded database places one batch at a time. */
  maxInFlight: number
  /** An invoice was marked settled (its order paid): wakes the mail and webhook workers. */
  onPaid?: (orderId: string) => void
  /** A new invoice's order waits for its payment: wakes an idle chain follower, as a checkout does. */
  onPlaced?: () => void
}

/** Why an invoice is refused: the Greenfield error it becomes. */
export class InvoiceRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly path?: string,
  ) {
    super(message)
  }
}

export function parseMethod(id: string): { chain: ChainId; token: TokenSymbol } | null {
  const [token, chain] = id.trim().toUpperCase().split('-')
  const c = chain?.toLowerCase() as ChainId
  const t = token as TokenSymbol
  if (!chainIds.includes(c) || !tokenSymbols.includes(t) || !stablecoins.has(t)) return null
  return { chain: c, token: t }
}

export function localeOf(language: string | null | undefined): Locale {
  const l = (language ?? '').toLowerCase()
  return l.startsWith('zh') ? 'zh' : l.startsWith('ru') ? 'ru' : 'en'
}

/** The network the invoice is paid on: the first of its payment methods the shop takes, else the shop's first. */
export function networkOf(
  chains: ChainRegistry,
  methods: readonly string[] | null | undefined,
): { chain: ChainId; token: TokenSymbol } {
  if (methods && methods.length > 0) {
    for (const id of methods) {
      const parsed = parseMethod(id)
      const choice = parsed && chooseNetwork(chains, parsed.chain, parsed.token)
      if (choice?.ok) return { chain: choice.chain, token: choice.token }
    }
    const taken = chains
      .enabled()
      .flatMap((c) =>
        c.tokens.filter((t) => stablecoins.has(t.symbol)).map((t) => paymentMethodId(c.chain, t.symbol)),
      )
    throw new InvoiceRefused(
      400,
      'validation',
      `none of these payment methods is taken by this shop; it takes ${taken.join(', ') || 'none'}`,
      'checkout.paymentMethods',
    )
  }
  const first = chains.enabled()[0]
  const choice = first ? chooseNetwork(chains, first.chain) : null
  if (!choice?.ok) throw new InvoiceRefused(503, 'service-unavailable', 'This shop takes no payments now')
  return { chain: choice.chain, token: choice.token }
}

export function createInvoiceService(opts: InvoiceServiceOptions) {
  const { db, chains, rules } = opts
  const placer = createOrderPlacer(
    db,
    { windowMs: Math.round(rules.windowMs), graceMs: Math.round(rules.graceMs), trxRate: opts.trxRate },
    { maxInFlight: opts.maxInFlight },
  )

  /**
   * Places an invoice's order of `cents` on `network` and writes the invoice in the same
   * transaction; answers the invoice's id, or the open one of the same seller's order (a retry).
   */
  async function placeAmount(p: {
    cents: number
    email: string
    locale: Locale
    network: { chain: ChainId; token: TokenSymbol }
    windowMs: number | undefined
    row: Omit<InvoiceInsert, 'id' | 'orderId'>
    /** Catalogue lines, priced at `cents` already (priceCart); without them an order of the amount. */
    items?: CreateOrderInput['p_items']
  }): Promise<string> {
    const id = newInvoiceId()
    let answer: CreateOrderAnswer
    try {
      answer = await placer.place(
        {
          p_email: p.email,
          p_items: p.items ?? [],
          p_total: p.cents / 100,
          p_locale: p.locale,
          p_chain: p.network.chain,
          p_token: p.network.token,
        },
        undefined,
        {
          amountCents: p.items ? undefined : p.cents,
          windowMs: p.windowMs,
          attach: (tx, order) => insertInvoice(tx, { ...p.row, id, orderId: order.id }),
        },
      )
    } catch (error) {
      if (error instanceof OpenInvoiceExists) return error.invoiceId
      throw error
    }
    if (!answer.success) {
      throw new InvoiceRefused(
        503,
        'service-unavailable',
        'No payment address is free now: try again in a few minutes',
      )
    }
    opts.onPlaced?.()
    return id
  }

  /** Creates an invoice, or answers the open one of the same metadata.orderId; answers its id. */
  async function create(request: CreateInvoiceRequest, apiKeyId: number | null): Promise<string> {
    const currency = (request.currency ?? 'USD').trim().toUpperCase() || 'USD'
    if (!(invoiceCurrencies as readonly string[]).includes(currency)) {
      throw new InvoiceRefused(
        400,
        'validation',
        `${currency.slice(0, 10)} is not accepted: this shop invoices in USD (or USDT / USDC, taken at par)`,
        'currency',
      )
    }
    const cents = amountToCents(request.amount) as number
    const metadata = request.metadata ?? {}
    const externalOrderId = metadata.orderId?.trim() || null
    if (externalOrderId) {
      const open = await openInvoiceOf(db, externalOrderId)
      if (open) return open
    }
    const checkout = request.checkout ?? {}
    const items = request.products?.map((p) => ({ product: { id: p.id }, quantity: p.quantity ?? 1 }))
    if (items) {
      // Priced as the placer prices them: the amount must be what the catalogue says.
      const priced = await priceCart(db, items).catch((error: Error) => {
        throw new InvoiceRefused(
          400,
          'validation',
          error.message.replace(/^Invalid request: /, ''),
          'products',
        )
      })
      if (priced.totalCents !== cents) {
        throw new InvoiceRefused(
          400,
          'validation',
          `must be the products' total, ${formatCents(priced.totalCents)}`,
          'amount',
        )
      }
    }
    return placeAmount({
      items,
      cents,
      email: metadata.buyerEmail?.trim() ?? '',
      locale: localeOf(checkout.defaultLanguage),
      network: networkOf(chains, request.checkout?.paymentMethods),
      windowMs: checkout.expirationMinutes ? checkout.expirationMinutes * 60_000 : undefined,
      row: { externalOrderId, currency, metadata, checkout, apiKeyId },
    })
  }

  /** The operator marks an invoice settled (its order paid by hand, the one path) or invalid (cancelled). */
  async function mark(
    found: InvoiceWithOrder,
    status: 'Invalid' | 'Settled',
    storeId: string,
  ): Promise<void> {
    const [view] = await invoiceViews(opts, [found], storeId)
    if (!view?.availableStatusesForManualMarking.includes(status)) {
      throw new InvoiceRefused(
        400,
        'invoice-not-markable',
        `An invoice that is ${view?.status ?? 'unknown'} cannot be marked ${status}`,
      )
    }
    const result = await updateOrderStatus(
      db,
      found.order.id,
      status === 'Settled' ? 'paid' : 'cancelled',
      rules,
    )
    if (result.kind === 'not_found')
      throw new InvoiceRefused(404, 'invoice-not-found', 'The invoice was not found')
    if (result.kind === 'refused') throw new InvoiceRefused(400, 'invoice-not-markable', result.error)
    await setInvoiceMarked(db, found.invoice.id, status)
    if (status === 'Settled' && result.delivered) opts.onPaid?.(found.order.id)
  }

  return {
    create,
    placeAmount,
    views: (rows: readonly InvoiceWithOrder[], storeId: string) => invoiceViews(opts, rows, storeId),
    mark,
    find: (id: string) => findInvoice(db, id),
  }
}
export type InvoiceService = ReturnType<typeof createInvoiceService>
