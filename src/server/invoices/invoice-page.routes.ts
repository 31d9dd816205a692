import type { FastifyInstance } from 'fastify'
import type { PaymentNetwork } from '../../shared/networks'
import type { AppServices } from '../app'
import { productsForSale } from '../catalog/catalog.routes'
import { chosenLocale, pageLocale } from '../render/page-locale'
import { compressHtml, type loadRenderer, renderInvoicePage } from '../render/render-page'
import { invoicePage } from './invoice-page'

export { invoiceOfOrderIs, invoicePageRpcs } from './invoice-page'

// GET /invoice/{id}: the invoice's checkoutLink (decision 062). The storefront's payment page,
// server-rendered in the invoice's language; an unknown or malformed id is a 404 page in the
// visitor's language. Never cached: the page follows the payment.

export interface InvoicePageRouteOptions {
  template: string
  renderer: Awaited<ReturnType<typeof loadRenderer>>
  services: Pick<AppServices, 'invoices' | 'chains' | 'catalog' | 'database' | 'content'>
  /** The networks the storefront's pages say it takes. */
  networks: PaymentNetwork[]
}

export function registerInvoicePage(app: FastifyInstance, opts: InvoicePageRouteOptions): void {
  app.get<{ Params: { '*': string } }>('/invoice/*', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/'
    const { invoices, chains, catalog, database, content } = opts.services
    const [products, siteContent, invoice] = await Promise.all([
      productsForSale(catalog, database.db),
      content.get(),
      invoicePage(invoices, chains, request.params['*'] ?? ''),
    ])
    // The invoice's language, unless a link chose one; an unknown invoice's page is in the visitor's.
    const locale = invoice.found
      ? (chosenLocale(request) ?? invoice.locale)
      : pageLocale(request, reply, false)
    const html = await renderInvoicePage(opts.template, opts.renderer, {
      path,
      products,
      content: siteContent,
      networks: opts.networks,
      locale,
      invoice,
    })
    const { body, encoding } = compressHtml(html, request.headers['accept-encoding'])
    reply
      .status(invoice.found ? 200 : 404)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('vary', 'accept-encoding, accept-language, cookie')
    if (encoding) reply.header('content-encoding', encoding)
    return reply.send(body)
  })
}
