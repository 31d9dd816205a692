import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { makeProduct } from '../../../tests/support/product'
import { locales } from '../../shared/locale'
import type { PaymentNetwork } from '../../shared/networks'
import type { Product } from '../../shared/product'
import { defaultSiteContent } from '../../shared/site-content-defaults'
import { storefrontPaths } from '../../web/app/routes'
import * as renderer from '../../web/entry-server'
import { compressHtml, renderPage } from './render-page'

// The real server-rendering entry (the one `vite build --ssr` bundles), run in Node.
const template = `<!doctype html>
<html lang="en">
  <head>
    <meta name="description" content="placeholder" />
    <meta name="theme-color" content="#000000" />
    <title>Stablecart</title>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`

const product = (id: number, name: string, extra: Partial<Product> = {}): Product =>
  makeProduct(id, {
    name,
    description: `About ${name}`,
    price: 49.99,
    features: ['One', 'Two', 'Three'],
    ...extra,
  })

const products = [product(1, 'Proxy Manager'), product(2, 'Free Checker', { is_free: true, price: 0 })]
const content = defaultSiteContent
const tronOnly: PaymentNetwork[] = [
  { chain: 'tron', family: 'tron', tokens: [{ symbol: 'USDT', decimals: 6 }], confirmations: null },
]
const withEvm: PaymentNetwork[] = [
  ...tronOnly,
  { chain: 'bsc', family: 'evm', tokens: [{ symbol: 'USDT', decimals: 18 }], confirmations: 15 },
  { chain: 'base', family: 'evm', tokens: [{ symbol: 'USDC', decimals: 6 }], confirmations: 20 },
]

const serverData = (html: string) => {
  const match = /<script type="application\/json" id="server-data">(.*?)<\/script>/s.exec(html)
  return match ? JSON.parse(match[1] as string) : null
}

describe('renderPage', () => {
  it('renders the listing with the hero, every product and the data the browser hydrates with', () => {
    const html = renderPage(template, renderer, {
      path: '/',
      products,
      content,
      networks: tronOnly,
      locale: 'en',
    })
    expect(html).toContain(`<h1`)
    expect(html).toContain(content.hero.title)
    expect(html).toContain('Proxy Manager')
    expect(html).toContain('Free Checker')
    expect(html).not.toContain('Loading products...')
    expect(html).toContain(`<title>${content.meta.title}</title>`)
    expect(html).toContain(
      `<meta name="description" content="${content.hero.subtitle.replace('{accepted}', 'USDT-TRC20/TRX')}" />`,
    )
    expect(html).toContain('Pay with USDT-TRC20 or TRX and get your key in minutes.')
    expect(html.slice(0, html.indexOf('id="server-data"'))).not.toContain('{accepted}')
    expect(html).toContain('--theme-primary:#26a17b')
    expect(serverData(html)).toEqual({ path: '/', products, content, networks: tronOnly })
  })

  it("says what the shop accepts: TRON's words with TRON alone, every network with more", () => {
    const tron = renderPage(template, renderer, {
      path: '/product/1',
      products,
      content,
      networks: tronOnly,
      locale: 'en',
    })
    expect(tron).toContain('USDT-TRC20/TRX accepted')
    expect(tron).toContain('We accept USDT-TRC20/TRX')
    const several = renderPage(template, renderer, {
      path: '/product/1',
      products,
      content,
      networks: withEvm,
      locale: 'en',
    })
    expect(several).not.toContain('USDT-TRC20/TRX accepted')
    expect(several).not.toContain('We accept USDT-TRC20/TRX')
    expect(several).toContain('USDT/USDC accepted on 3 networks')
    expect(several).toContain('We accept USDT · TRON, USDT · BNB Smart Chain, USDC · Base')
    expect(serverData(several).networks).toEqual(withEvm)
    const home = renderPage(template, renderer, {
      path: '/',
      products,
      content,
      networks: withEvm,
      locale: 'zh',
    })
    expect(home).toContain('即时交付 · 3 个网络上的 USDT/USDC')
    // The default hero subtitle names what the shop accepts, like the footer.
    const homeEn = renderPage(template, renderer, {
      path: '/',
      products,
      content,
      networks: withEvm,
      locale: 'en',
    })
    expect(homeEn).toContain('Pay with USDT/USDC on 3 networks and get your key in minutes.')
    expect(homeEn).toContain('Pay with USDT/USDC · TRON, BNB Smart Chain, Base and get your key')
  })

  it('renders the page in the language asked for, with <html lang>', () => {
    const zh = renderPage(template, renderer, {
      path: '/',
      products,
      content,
      networks: tronOnly,
      locale: 'zh',
    })
    expect(zh).toMatch(/<html lang="zh-CN"/)
    expect(zh).toContain('查看产品')
    expect(zh).not.toContain('View Products')
    const ru = renderPage(template, renderer, {
      path: '/product/1',
      products,
      content,
      networks: tronOnly,
      locale: 'ru',
    })
    expect(ru).toMatch(/<html lang="ru"/)
    expect(ru).toContain('Назад к товарам')
    expect(ru).toContain('49,99')
    const en = renderPage(template, renderer, {
      path: '/',
      products,
      content,
      networks: tronOnly,
      locale: 'en',
    })
    expect(en).toMatch(/<html lang="en"/)
    expect(en).toContain('View Products')
    expect(en).toContain('$49.99')
  })

  it("renders a product in the page's language, English where the operator wrote none", () => {
    const translated = [
      product(1, 'Proxy Manager', { translations: { zh: { name: '代理管理器', description: '管理代理' } } }),
    ]
    const zh = renderPage(template, renderer, {
      path: '/product/1',
      networks: tronOnly,
      products: translated,
      content,
      locale: 'zh',
    })
    expect(zh).toMatch(/<h1[^>]*>代理管理器<\/h1>/)
    expect(zh).toContain(`<title>代理管理器 — ${content.meta.title}</title>`)
    expect(zh).toContain('<meta name="description" content="管理代理" />')
    const ru = renderPage(template, renderer, {
      path: '/product/1',
      networks: tronOnly,
      products: translated,
      content,
      locale: 'ru',
    })
    expect(ru).toMatch(/<h1[^>]*>Proxy Manager<\/h1>/)
  })

  it("renders a product page with the product's name as title and its description", () => {
    const html = renderPage(template, renderer, {
      path: '/product/1',
      products,
      content,
      networks: tronOnly,
      locale: 'en',
    })
    expect(html).toMatch(/<h1[^>]*>Proxy Manager<\/h1>/)
    expect(html).toContain(`<title>Proxy Manager — ${content.meta.title}</title>`)
    expect(html).toContain('<meta name="description" content="About Proxy Manager" />')
    expect(html).not.toContain('Loading product...')
  })

  it('leaves unknown products and browser-only pages to the browser, with the shop head', () => {
    for (const path of ['/product/999', '/cart', '/checkout', '/payment', '/admin', '/dashboard/x']) {
      const html = renderPage(template, renderer, {
        path,
        products,
        content,
        networks: tronOnly,
        locale: 'en',
      })
      expect(html).toContain('<div id="root"></div>')
      expect(serverData(html)).toBeNull()
      expect(html).toContain(`<title>${content.meta.title}</title>`)
    }
  })

  it('keeps markup in content and products as text, in the page and in the data', () => {
    const evil = '</script><script>alert(1)</script><img src=x onerror=alert(2)>'
    const html = renderPage(template, renderer, {
      path: '/product/1',
      networks: tronOnly,
      products: [product(1, evil, { description: evil })],
      content: { ...content, meta: { title: `"${evil}` } },
      locale: 'en',
    })
    expect(html).not.toContain('<script>alert(1)')
    expect(html).not.toContain('<img src=x')
    expect(serverData(html).products[0].name).toBe(evil)
  })

  it('without the rendering bundle serves the shell with the shop head', () => {
    const html = renderPage(template, undefined, {
      path: '/',
      products,
      content,
      networks: tronOnly,
      locale: 'en',
    })
    expect(html).toContain('<div id="root"></div>')
    expect(html).toContain(`<title>${content.meta.title}</title>`)
  })
})

/** Each client-render fallback in the HTML, with the reason React wrote into it. */
const clientRenderFallbacks = (html: string) =>
  [...html.matchAll(/<!--\$!-->(<template[^>]*>)?/g)].map(
    (m) => /data-msg="([^"]*)"/.exec(m[1] ?? '')?.[1] ?? m[0],
  )

describe('every storefront route on the server', () => {
  // An example address for each route; a new route needs one here.
  const examples: Record<string, string> = {
    '/': '/',
    '/products': '/products',
    '/product/:id': '/product/1',
    '/support': '/support',
    '/cart': '/cart',
    '/checkout': '/checkout',
    '/payment': '/payment',
    // Rendered by its own route (renderInvoicePage, tested in invoices/invoice-page.test.ts).
    '/invoice/*': '/invoice/AAAAAAAAAAAAAAAAAAAAAA',
    '/dashboard/:token': '/dashboard/x',
    '/orders/:token': '/orders/x',
    '/refund/:token': '/refund/x',
  }
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('has an example for each route', () => {
    expect(Object.keys(examples).sort()).toEqual([...storefrontPaths].sort())
  })

  // renderToString cannot wait for a lazy part: it writes a client-render fallback (`<!--$!-->`,
  // with React's reason in a template) and the browser reports #419 while hydrating.
  it.each(locales)(
    'renders each server-rendered page in %s whole, without a fallback or an error',
    (locale) => {
      const logged = vi.spyOn(console, 'error')
      const rendered = Object.values(examples).filter((path) => renderer.serverRenderedPaths.test(path))
      expect(rendered).toEqual(['/', '/products', '/product/1', '/support'])
      for (const path of rendered) {
        const html = renderPage(template, renderer, { path, products, content, networks: tronOnly, locale })
        expect(serverData(html), path).not.toBeNull()
        expect(clientRenderFallbacks(html), path).toEqual([])
        expect(html, path).toContain('<h1')
      }
      expect(logged).not.toHaveBeenCalled()
    },
  )
})

describe('compressHtml', () => {
  const page = renderPage(template, renderer, {
    path: '/',
    products,
    content,
    networks: tronOnly,
    locale: 'en',
  })

  it('answers brotli, then gzip, as the browser asks', () => {
    const br = compressHtml(page, 'gzip, deflate, br, zstd')
    expect(br.encoding).toBe('br')
    expect(brotliDecompressSync(br.body).toString()).toBe(page)
    expect(br.body.length).toBeLessThan(page.length / 3)
    const gz = compressHtml(page, 'gzip')
    expect(gz.encoding).toBe('gzip')
    expect(gunzipSync(gz.body).toString()).toBe(page)
  })

  it('sends plain text to a client that asks for nothing or refuses both', () => {
    expect(compressHtml(page, undefined).encoding).toBeUndefined()
    expect(compressHtml(page, 'br;q=0, gzip;q=0').encoding).toBeUndefined()
    expect(compressHtml(page, 'identity').encoding).toBeUndefined()
  })
})
