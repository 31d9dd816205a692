// Server rendering of the catalogue pages: the same tree as main.tsx, with the data the server
// already holds, so the first paint needs no JavaScript. Built by `vite build --ssr` into
// dist/ssr and loaded by the server (src/server/render/render-page.ts).
import { StrictMode } from 'react'
import { renderToString } from 'react-dom/server'
import { prerenderToNodeStream } from 'react-dom/static'
import { StaticRouter } from 'react-router'
import { invoicePageKeys } from '../shared/invoice-page'
import type { Locale } from '../shared/locale'
import { AppShell, createQueryClient } from './app/app'
import { AppRoutes, serverRenderedPaths } from './app/routes'
import type { ServerData } from './app/server-data'
import { themeVariables } from './app/theme'
import { activateWith, createI18n } from './i18n/i18n'
import buyEn from './i18n/messages/buy/en.json'
import buyRu from './i18n/messages/buy/ru.json'
import buyZh from './i18n/messages/buy/zh.json'
import en from './i18n/messages/shop/en.json'
import ru from './i18n/messages/shop/ru.json'
import zh from './i18n/messages/shop/zh.json'
import { networksKeys } from './lib/api/get-networks'
import { productKeys } from './lib/api/get-products'
import { siteContentKeys } from './lib/api/get-site-content'

export { serverRenderedPaths }

// The server has every storefront message in memory (the browser downloads `buy` later).
const catalogs: Record<Locale, Record<string, unknown>> = {
  en: { ...en, ...buyEn },
  zh: { ...zh, ...buyZh },
  ru: { ...ru, ...buyRu },
}

function page(data: ServerData & { locale: Locale }) {
  const queryClient = createQueryClient()
  const i18n = activateWith(createI18n(), data.locale, catalogs[data.locale])
  queryClient.setQueryData(productKeys.all, data.products)
  queryClient.setQueryData(siteContentKeys.all, data.content)
  queryClient.setQueryData(networksKeys.all, data.networks)
  if (data.invoice) queryClient.setQueryData(invoicePageKeys.one(data.invoice.id), data.invoice)
  return (
    <StrictMode>
      <AppShell queryClient={queryClient} i18n={i18n}>
        <StaticRouter location={data.path}>
          <AppRoutes />
        </StaticRouter>
      </AppShell>
    </StrictMode>
  )
}

export function render(data: ServerData & { locale: Locale }): string {
  return renderToString(page(data))
}

/**
 * A page whose route is downloaded later in the browser (an invoice's hosted payment page). A first
 * render waits for its chunks; the second, with them loaded, writes the whole page in place, as
 * render does: no script of React's streaming in the page (the shop's CSP allows none inline).
 */
export async function renderComplete(data: ServerData & { locale: Locale }): Promise<string> {
  const { prelude } = await prerenderToNodeStream(page(data))
  for await (const _ of prelude) {
    // read to the end; the page is rendered again below
  }
  return renderToString(page(data))
}

/** The theme's CSS variables as an inline style for <html>, so the first paint has the shop's colours. */
export function themeStyle(theme: ServerData['content']['theme']): string {
  return Object.entries(themeVariables(theme))
    .map(([name, value]) => `${name}:${value}`)
    .join(';')
}
