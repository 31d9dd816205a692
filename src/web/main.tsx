import { StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router'
import { AppShell, createQueryClient } from './app/app'
import { applyReloadRules } from './app/checkout-watch'
import { AppRoutes } from './app/routes'
import { SERVER_DATA_ID, type ServerData } from './app/server-data'
import { activate, documentLocale, shopI18n } from './i18n/i18n'
import { productKeys } from './lib/api/get-products'
import { siteContentKeys } from './lib/api/get-site-content'
import './styles.css'

function readServerData(): ServerData | null {
  try {
    const text = document.getElementById(SERVER_DATA_ID)?.textContent
    return text ? (JSON.parse(text) as ServerData) : null
  } catch {
    return null
  }
}

const queryClient = createQueryClient()
const data = readServerData()
if (data) {
  queryClient.setQueryData(productKeys.all, data.products)
  queryClient.setQueryData(siteContentKeys.all, data.content)
}
// The reload rules run before the router reads the address bar (they may change it).
applyReloadRules()

const root = document.getElementById('root') as HTMLElement
const app = (
  <StrictMode>
    <AppShell queryClient={queryClient} i18n={shopI18n}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppShell>
  </StrictMode>
)
// The page's language (the server chose it) is downloaded before the first render, so the
// browser renders exactly what the server sent.
void activate(shopI18n, documentLocale()).then(() => {
  if (data && data.path === window.location.pathname && root.firstChild) {
    hydrateRoot(root, app)
  } else {
    // Rendered for another path (a reload rule moved the buyer on), or not rendered at all.
    root.textContent = ''
    createRoot(root).render(app)
  }
})
