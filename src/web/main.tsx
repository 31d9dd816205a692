import { StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router'
import { invoicePageKeys } from '../shared/invoice-page'
import { AppShell, createQueryClient, startHydrating } from './app/app'
import { applyReloadRules } from './app/checkout-watch'
import { AppRoutes } from './app/routes'
import { SERVER_DATA_ID, type ServerData } from './app/server-data'
import { activate, documentLocale, shopI18n, warmUpIntl } from './i18n/i18n'
import { networksKeys } from './lib/api/get-networks'
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

const root = document.getElementById('root') as HTMLElement
const locale = documentLocale()
// The page's language (the server chose it) is downloaded before the first render, so the
// browser renders exactly what the server sent.
const messages = activate(shopI18n, locale)

/** Resolves in a task of its own, after the browser has had a turn. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve))

// The work before the first render runs in short tasks of its own while the messages download,
// not in the one that evaluates the script, so no task grows long enough to block a tap.
const prepared = nextTask()
  .then(() => {
    const queryClient = createQueryClient()
    const data = readServerData()
    if (data) {
      queryClient.setQueryData(productKeys.all, data.products)
      queryClient.setQueryData(siteContentKeys.all, data.content)
      if (data.networks?.length) queryClient.setQueryData(networksKeys.all, data.networks)
      if (data.invoice) queryClient.setQueryData(invoicePageKeys.one(data.invoice.id), data.invoice)
    }
    // The reload rules run before the router reads the address bar (they may change it).
    applyReloadRules()
    return { queryClient, data }
  })
  .then(async (prepared) => {
    await nextTask()
    // A browser's first number format loads its locale data, a one-off cost of tens of
    // milliseconds on a phone: paid here, it does not lengthen the task that renders the
    // header's and the prices' numbers.
    warmUpIntl(locale)
    return prepared
  })

void Promise.all([prepared, messages]).then(([{ queryClient, data }]) => {
  const app = (
    <StrictMode>
      <AppShell queryClient={queryClient} i18n={shopI18n}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </AppShell>
    </StrictMode>
  )
  if (data && data.path === window.location.pathname && root.firstChild) {
    startHydrating()
    hydrateRoot(root, app)
  } else {
    // Rendered for another path (a reload rule moved the buyer on), or not rendered at all.
    root.textContent = ''
    createRoot(root).render(app)
  }
})
