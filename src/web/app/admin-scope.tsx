import { I18nProvider } from '@lingui/react'
import { QueryClientProvider } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { Outlet } from 'react-router'
import { localeTags, pickLocale } from '../../shared/locale'
import { createAdminQueryClient } from '../features/admin/api/admin-query-client'
import { activate, adminI18n } from '../i18n/i18n'

/** The operator's language: their own choice (admin_lang), else the browser's languages. */
function adminLocale() {
  return pickLocale({
    cookieHeader: document.cookie,
    acceptLanguage: navigator.languages.join(','),
    admin: true,
  })
}

/**
 * Every /admin page speaks the admin's language, chosen apart from the storefront's, and has the
 * admin's query client: the storefront's defaults plus the panel's one error-toast policy.
 */
export function AdminScope() {
  const [ready, setReady] = useState(false)
  const [queryClient] = useState(() => createAdminQueryClient(adminI18n))
  useEffect(() => {
    const locale = adminLocale()
    void activate(adminI18n, locale, ['shop', 'buy', 'admin']).then(() => {
      document.documentElement.lang = localeTags[locale]
      setReady(true)
    })
  }, [])
  if (!ready) return null
  return (
    <I18nProvider i18n={adminI18n}>
      <QueryClientProvider client={queryClient}>
        <Outlet />
      </QueryClientProvider>
    </I18nProvider>
  )
}
