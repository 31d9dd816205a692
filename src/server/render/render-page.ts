import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { InvoicePage } from '../../shared/invoice-page'
import { type Locale, localeTags } from '../../shared/locale'
import { localizeContent, localizeProduct } from '../../shared/localize'
import { acceptedSummary, type PaymentNetwork } from '../../shared/networks'
import type { Product } from '../../shared/product'
import type { SiteContent } from '../../shared/site-content'
import { ACCEPTED_PLACEHOLDER } from '../../shared/site-content-defaults'

// Server rendering of the catalogue pages (decision 008): the HTML carries the page, the catalogue
// and the site content, so the first paint waits for no script and the browser hydrates it.

interface Renderer {
  serverRenderedPaths: RegExp
  render(data: {
    path: string
    products: Product[]
    content: SiteContent
    networks: PaymentNetwork[]
    locale: Locale
  }): string
  /** Waits for the routes downloaded later in the browser (an invoice's hosted page). */
  renderComplete(data: {
    path: string
    products: Product[]
    content: SiteContent
    networks: PaymentNetwork[]
    locale: Locale
    invoice: InvoicePage
  }): Promise<string>
  themeStyle(theme: SiteContent['theme']): string
}

/** The bundle `vite build --ssr` writes next to the web build; undefined when it was not built. */
export async function loadRenderer(webRoot: string): Promise<Renderer | undefined> {
  const entry = join(webRoot, '..', 'ssr', 'entry-server.js')
  if (!existsSync(entry)) return undefined
  return (await import(pathToFileURL(entry).href)) as Renderer
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** JSON inside <script type="application/json">: nothing in it can close the element. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')

const META_DESCRIPTION_MAX = 160

function metaDescription(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= META_DESCRIPTION_MAX ? flat : `${flat.slice(0, META_DESCRIPTION_MAX - 1).trimEnd()}…`
}

export interface PageInput {
  path: string
  products: Product[]
  content: SiteContent
  /** The language the page is written in (chosen per request, see shared/locale.ts). */
  locale: Locale
  /** The enabled networks, as secure_get_payment_networks answers them (the pages say what they accept). */
  networks: PaymentNetwork[]
}

/**
 * The index.html template with the title, description and theme of the shop, and, for a path the
 * renderer knows, the rendered page and its data. Any other path gets the same head and an empty
 * root that the browser renders.
 */
export function renderPage(template: string, renderer: Renderer | undefined, input: PageInput): string {
  const { path, products, locale, networks } = input
  const content = localizeContent(input.content, locale)
  const productMatch = /^\/product\/(\d+)$/.exec(path)
  const listed = productMatch ? products.find((p) => p.id === Number(productMatch[1])) : undefined
  const product = listed && localizeProduct(listed, locale)
  const title = product ? `${product.name} — ${content.meta.title}` : content.meta.title
  const description = metaDescription(
    product
      ? product.description
      : content.hero.subtitle.replaceAll(ACCEPTED_PLACEHOLDER, acceptedSummary(networks)),
  )

  const html = pageHead(template, renderer, content, locale, title, description)
  if (!renderer) return html
  // A product id the catalogue doesn't have goes back to the catalogue in the browser.
  if (!renderer.serverRenderedPaths.test(path) || (productMatch && !product)) return html
  const body = renderer.render({ path, products, content: input.content, networks, locale })
  const data = `<script type="application/json" id="server-data">${scriptJson({ path, products, content: input.content, networks })}</script>`
  return html.replace('<div id="root"></div>', `<div id="root">${body}</div>${data}`)
}

/** The template with the page's title, description, language and the shop's theme. */
function pageHead(
  template: string,
  renderer: Renderer | undefined,
  content: SiteContent,
  locale: Locale,
  title: string,
  description: string,
): string {
  const html = template
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
    .replace(
      /<meta name="description" content="[^"]*" \/>/,
      `<meta name="description" content="${escapeHtml(description)}" />`,
    )
    .replace(
      /<meta name="theme-color" content="[^"]*" \/>/,
      `<meta name="theme-color" content="${escapeHtml(content.theme.background)}" />`,
    )
  const style = renderer ? ` style="${escapeHtml(renderer.themeStyle(content.theme))}"` : ''
  return html.replace('<html lang="en">', `<html lang="${localeTags[locale]}"${style}>`)
}

/**
 * An invoice's hosted payment page (decision 062): in the invoice's language, with the shop's
 * theme, the whole payment page rendered and the invoice beside it for the browser. Never cached:
 * it is one buyer's page and changes as the payment does.
 */
export async function renderInvoicePage(
  template: string,
  renderer: Renderer | undefined,
  input: PageInput & { invoice: InvoicePage },
): Promise<string> {
  const { path, products, locale, networks, invoice } = input
  const content = localizeContent(input.content, locale)
  const html = pageHead(template, renderer, content, locale, content.meta.title, content.meta.title)
    // The address is the buyer's to pay with: no search engine lists it.
    .replace('</head>', '<meta name="robots" content="noindex" /></head>')
  if (!renderer) return html
  const body = await renderer.renderComplete({
    path,
    products,
    content: input.content,
    networks,
    locale,
    invoice,
  })
  const data = `<script type="application/json" id="server-data">${scriptJson({ path, products, content: input.content, networks, invoice })}</script>`
  return html.replace('<div id="root"></div>', `<div id="root">${body}</div>${data}`)
}

/** The encoding a page is sent in, as the browser asks: brotli, else gzip, else none. */
export function htmlEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  const accepted = new Set(
    (acceptEncoding ?? '').split(',').flatMap((part) => {
      const [name = '', ...params] = part.trim().toLowerCase().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      return q && !(Number(q.slice(2)) > 0) ? [] : [name.trim()]
    }),
  )
  return accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : undefined
}

/** The page compressed as the browser asks (brotli, else gzip); small and fast settings per request. */
export function compressHtml(
  html: string,
  acceptEncoding: string | undefined,
): { body: Buffer; encoding?: string } {
  const encoding = htmlEncoding(acceptEncoding)
  const raw = Buffer.from(html)
  if (encoding === 'br') {
    return {
      body: brotliCompressSync(raw, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
      }),
      encoding,
    }
  }
  if (encoding === 'gzip') return { body: gzipSync(raw, { level: 6 }), encoding }
  return { body: raw }
}

export interface PageCache {
  /**
   * The page for key made from these sources (the template, the catalogue and the site content, as
   * objects): kept from an earlier request while every source is the same object, else made anew.
   */
  get(
    sources: readonly unknown[],
    key: string,
    make: () => { body: Buffer; encoding?: string },
  ): { body: Buffer; encoding?: string }
}

/**
 * Rendered, compressed pages (decision 034). Rendering and compressing a catalogue page is most of
 * the CPU and of the short-lived memory a page view costs, and the page only changes when the
 * catalogue or the site content does: their caches hand out a new object then, and a catalogue
 * with sold-out marks is a new array when the marks change (productsForSale). At most maxPages are
 * kept, the oldest dropped first, so unknown paths cannot grow it.
 */
export function createPageCache(maxPages = 64): PageCache {
  let madeFrom: readonly unknown[] = []
  const pages = new Map<string, { body: Buffer; encoding?: string }>()
  return {
    get(sources, key, make) {
      if (sources.length !== madeFrom.length || sources.some((source, i) => source !== madeFrom[i])) {
        pages.clear()
        madeFrom = sources
      }
      const kept = pages.get(key)
      if (kept) return kept
      const page = make()
      if (pages.size >= maxPages) pages.delete(pages.keys().next().value as string)
      pages.set(key, page)
      return page
    },
  }
}
