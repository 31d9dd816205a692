// The one way a component test renders: English messages (or the language asked for), a fresh query client (the storefront's,
// or the admin panel's with its error-toast policy) and the toasts, as the app mounts them.
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, waitFor } from '@testing-library/react'
import type { ReactElement } from 'react'
import { afterEach, expect } from 'vitest'
import type { Locale } from '../../shared/locale'
import { createAdminQueryClient } from '../features/admin/api/admin-query-client'
import { createQueryClient } from '../lib/query-client'
import { Toaster, toast } from '../lib/toast'
import { testI18nIn, WithI18n } from './i18n'

// Each test starts without toasts: the library replays the ones still active to a new Toaster.
afterEach(() => toast.dismiss())

export interface Rendered extends ReturnType<typeof render> {
  client: QueryClient
  /** Resolves once no query is fetching and no mutation is running. */
  settled: () => Promise<void>
}

export function renderWithProviders(
  ui: ReactElement,
  {
    admin = false,
    toasts = admin,
    locale = 'en',
    client = admin ? createAdminQueryClient(testI18nIn(locale)) : createQueryClient(),
  }: {
    /** The admin panel's client (its error-toast policy) instead of the storefront's. */
    admin?: boolean
    /** A client the test prepared (data already in it); a fresh one otherwise. */
    client?: QueryClient
    /** Mount the Toaster, so toasts are on screen (toastTexts); the admin's by default. */
    toasts?: boolean
    /** The language the messages, money and dates are in; English by default. */
    locale?: Locale
  } = {},
): Rendered {
  const result = render(
    <WithI18n i18n={testI18nIn(locale)}>
      <QueryClientProvider client={client}>
        {ui}
        {toasts && <Toaster />}
      </QueryClientProvider>
    </WithI18n>,
  )
  const settled = () =>
    waitFor(() => {
      expect(client.isFetching()).toBe(0)
      expect(client.isMutating()).toBe(0)
    })
  return { ...result, client, settled }
}

/** The texts of the toasts on screen, oldest first. */
export function toastTexts(): string[] {
  return [...document.querySelectorAll('[data-sonner-toast]')].map((el) => el.textContent?.trim() ?? '')
}
