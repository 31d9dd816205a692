import type { I18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { type ReactNode, useEffect } from 'react'
import { Toaster } from '../lib/toast'
import { ConnectionMonitor } from './connection-monitor'
import { ThemeSync } from './theme'

export { createQueryClient } from '../lib/query-client'

/** Marks <html data-hydrated> once the app is interactive (server-rendered HTML is visible before). */
function HydratedMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = ''
  }, [])
  return null
}

/** Everything around the router; the same tree in the browser and on the server. */
export function AppShell({
  queryClient,
  i18n,
  children,
}: {
  queryClient: QueryClient
  /** The storefront's messages, already in the page's language. */
  i18n: I18n
  children: ReactNode
}) {
  return (
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <ThemeSync />
        <ConnectionMonitor />
        {children}
        <HydratedMark />
        <Toaster
          position="top-right"
          visibleToasts={20}
          richColors
          theme="dark"
          duration={4000}
          closeButton
        />
      </QueryClientProvider>
    </I18nProvider>
  )
}
