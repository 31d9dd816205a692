import { type Locale, locales, localeTags } from '../../shared/locale'
import { compiledCatalogs } from '../i18n/compiled-catalogs'
import en from './messages/en.json'
import ru from './messages/ru.json'
import zh from './messages/zh.json'

// The order e-mail's messages (messages/<locale>.json, ICU, the same checks as the storefront's),
// compiled once, on first use; the e-mail is written in the language the buyer ordered in.

export type EmailMessageId = keyof typeof en
export type EmailTranslate = (id: EmailMessageId, values?: Record<string, string | number>) => string

const catalogs: Record<Locale, Record<string, string>> = { en, zh, ru }

const instance = compiledCatalogs(catalogs)

export function emailTranslator(locale: Locale): EmailTranslate {
  const i18n = instance(locales.includes(locale) ? locale : 'en')
  return (id, values) => i18n._(id, values)
}

/** Integer cents as the language writes dollars ("$49.99", "US$49.99", "49,99 $"), without a binary float. */
export function formatUsdCents(cents: number, locale: Locale): string {
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(Math.trunc(cents))
  const decimal = `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}` as `${number}`
  return new Intl.NumberFormat(localeTags[locale], { style: 'currency', currency: 'USD' }).format(decimal)
}
