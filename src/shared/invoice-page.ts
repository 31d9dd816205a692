import type { ChainId, TokenSymbol } from './chains'
import type { Locale } from './locale'

// The hosted payment page of an invoice (/invoice/{id}): what the server puts in the page and
// secure_get_invoice_page answers. Its `order` has the names secure_create_order answers, so the
// storefront's payment page reads it as it reads a checkout's order. No schema library here: the
// first chunk reads the keys (main.tsx).

/** An invoice's public id: 16 random bytes in base64url (src/server/invoices/invoices.repo.ts). */
export const INVOICE_ID = /^[A-Za-z0-9_-]{22}$/

/** Where the buyer goes back to: the seller's redirectURL, and the seller's name as the page says it. */
export interface InvoiceBack {
  url: string
  seller: string
  automatic: boolean
}

export interface InvoicePageOrder {
  order_id: string
  email: string
  wallet_address: string
  /** Dollars, as the server computed them. */
  total: number
  created_at: string
  window_ends_at: string
  trx_amount: string | null
  trx_rate: string | null
  chain: ChainId
  token: TokenSymbol
  token_decimals: number | null
  amount_units: string | null
  payment_uri: string | null
  watched: { chain: ChainId; tokens: TokenSymbol[] }[] | null
  confirm_blocks: number | null
  confirm_seconds: number | null
}

/** open: New or Processing; paid: Settled; expired / invalid: the payment is over without it. */
export type InvoicePageState = 'open' | 'paid' | 'expired' | 'invalid'

export type InvoicePage =
  | { found: false; id: string }
  | {
      found: true
      id: string
      state: InvoicePageState
      locale: Locale
      /** metadata.itemDesc, when the seller sent one. */
      item: string | null
      back: InvoiceBack | null
      order: InvoicePageOrder
    }

export const invoicePageKeys = { one: (id: string) => ['invoice-page', id] as const }

/** Paths of the hosted page that can name an invoice (others are the storefront's). */
export const INVOICE_PATH = /^\/invoice\/([A-Za-z0-9_-]{22})$/
