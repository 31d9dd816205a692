import { useLingui } from '@lingui/react'
import { Languages } from 'lucide-react'
import { useId, useRef } from 'react'
import {
  ADMIN_LOCALE_COOKIE,
  isLocale,
  LOCALE_COOKIE,
  LOCALE_PARAM,
  type Locale,
  localeNames,
  locales,
  localeTags,
} from '../../shared/locale'
import { useTypedBeforeHydration } from '../lib/typed-before-hydration'
import { type Area, activate, useLocale, useT } from './i18n'

const YEAR_SECONDS = 365 * 24 * 3600

/**
 * A native select: the keyboard and screen readers know it. The choice is a cookie so the server
 * renders the next page in it; a ?lang= in the address is dropped so a reload keeps the choice.
 */
export function LanguageSwitcher({ admin = false, className = '' }: { admin?: boolean; className?: string }) {
  const t = useT()
  const { i18n } = useLingui()
  const locale = useLocale()
  const id = useId()
  const areas: Area[] = admin ? ['shop', 'buy', 'admin'] : ['shop']
  const select = useRef<HTMLSelectElement>(null)

  async function choose(next: Locale) {
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from browsers the shop serves
    document.cookie = `${admin ? ADMIN_LOCALE_COOKIE : LOCALE_COOKIE}=${next}; path=/; max-age=${YEAR_SECONDS}; samesite=lax`
    await activate(i18n, next, areas)
    document.documentElement.lang = localeTags[next]
    const url = new URL(window.location.href)
    if (url.searchParams.has(LOCALE_PARAM)) {
      url.searchParams.delete(LOCALE_PARAM)
      window.history.replaceState(window.history.state, '', url)
    }
  }

  // A language chosen on the server-rendered page before it became interactive still counts.
  useTypedBeforeHydration(() => {
    const chosen = select.current?.value
    if (chosen !== locale && chosen !== undefined && isLocale(chosen)) void choose(chosen)
  })

  return (
    <div className={`relative flex items-center ${className}`}>
      <label htmlFor={id} className="sr-only">
        {t('header.language')}
      </label>
      <Languages className="pointer-events-none absolute left-2.5 size-4 text-muted" aria-hidden />
      <select
        ref={select}
        id={id}
        value={locale}
        onChange={(e) => {
          if (isLocale(e.target.value)) void choose(e.target.value)
        }}
        className="h-10 appearance-none rounded-lg border border-line bg-transparent py-0 pr-2 pl-8 text-sm text-fg hover:bg-white/5 focus:border-primary/60 focus:outline-none"
      >
        {locales.map((l) => (
          <option key={l} value={l} lang={localeTags[l]} className="bg-card">
            {localeNames[l]}
          </option>
        ))}
      </select>
    </div>
  )
}
