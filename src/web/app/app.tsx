import type { I18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { type ReactNode, Suspense, useEffect } from 'react'
import { Toaster } from '../lib/toast'
import { ConnectionMonitor } from './connection-monitor'
import { ThemeSync } from './theme'

export { createQueryClient } from '../lib/query-client'

let hydrating = false

/** main.tsx, before it hydrates server-rendered HTML: the page marks itself once it is hydrated. */
export function startHydrating(): void {
  hydrating = true
}

/**
 * Marks <html data-hydrated> once the app is interactive (server-rendered HTML is visible before).
 * A hydrated page is marked by its own layout (`page`), which hydrates last; a page rendered in
 * the browser is marked as soon as the app has mounted (`app`).
 */
export function HydratedMark({ by }: { by: 'app' | 'page' }) {
  useEffect(() => {
    if (by === 'page' || !hydrating) document.documentElement.dataset.hydrated = ''
  }, [by])
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
        {/* Hydration in slices: React hydrates the content of a Suspense boundary after the
            root, in short tasks that give way to input, instead of the whole page in one. */}
        <Suspense fallback={null}>{children}</Suspense>
        <HydratedMark by="app" />
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
