// Server rendering of the catalogue pages: the same tree as main.tsx, with the data the server
// already holds, so the first paint needs no JavaScript. Built by `vite build --ssr` into
// dist/ssr and loaded by the server (src/server/render/render-page.ts).
import { StrictMode } from 'react'
import { renderToString } from 'react-dom/server'
import { StaticRouter } from 'react-router'
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

export function render(data: ServerData & { locale: Locale }): string {
  const queryClient = createQueryClient()
  const i18n = activateWith(createI18n(), data.locale, catalogs[data.locale])
  queryClient.setQueryData(productKeys.all, data.products)
  queryClient.setQueryData(siteContentKeys.all, data.content)
  queryClient.setQueryData(networksKeys.all, data.networks)
  return renderToString(
    <StrictMode>
      <AppShell queryClient={queryClient} i18n={i18n}>
        <StaticRouter location={data.path}>
          <AppRoutes />
        </StaticRouter>
      </AppShell>
    </StrictMode>,
  )
}

/** The theme's CSS variables as an inline style for <html>, so the first paint has the shop's colours. */
export function themeStyle(theme: ServerData['content']['theme']): string {
  return Object.entries(themeVariables(theme))
    .map(([name, value]) => `${name}:${value}`)
    .join(';')
}
