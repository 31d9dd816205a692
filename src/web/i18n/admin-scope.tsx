import { I18nProvider } from '@lingui/react'
import { useEffect, useState } from 'react'
import { Outlet } from 'react-router'
import { localeTags, pickLocale } from '../../shared/locale'
import { activate, adminI18n } from './i18n'

/** The operator's language: their own choice (admin_lang), else the browser's languages. */
function adminLocale() {
  return pickLocale({
    cookieHeader: document.cookie,
    acceptLanguage: navigator.languages.join(','),
    admin: true,
  })
}

/** Every /admin page speaks the admin's language, chosen apart from the storefront's. */
export function AdminScope() {
  const [ready, setReady] = useState(false)
  useEffect(() => {
    const locale = adminLocale()
    void activate(adminI18n, locale, ['shop', 'admin']).then(() => {
      document.documentElement.lang = localeTags[locale]
      setReady(true)
    })
  }, [])
  if (!ready) return null
  return (
    <I18nProvider i18n={adminI18n}>
      <Outlet />
    </I18nProvider>
  )
}
