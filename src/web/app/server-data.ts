import type { InvoicePage } from '../../shared/invoice-page'
import type { PaymentNetwork } from '../../shared/networks'
import type { Product } from '../../shared/product'
import type { SiteContent } from '../../shared/site-content'

/** What the server puts beside server-rendered HTML, so the browser starts with the same data. */
export interface ServerData {
  /** The path that was rendered. */
  path: string
  products: Product[]
  content: SiteContent
  /** The enabled networks and their tokens (secure_get_payment_networks). */
  networks: PaymentNetwork[]
  /** On an invoice's hosted page (/invoice/{id}): the invoice as secure_get_invoice_page answers it. */
  invoice?: InvoicePage
}

export const SERVER_DATA_ID = 'server-data'
