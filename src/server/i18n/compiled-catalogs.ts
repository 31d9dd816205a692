import { type I18n, setupI18n } from '@lingui/core'
import { compileMessage } from '@lingui/message-utils/compileMessage'
import { type Locale, localeTags } from '../../shared/locale'

/**
 * The server's message catalogues (ICU, one JSON file a language), each compiled once, on first use,
 * into a Lingui instance of its own: the order e-mail and the buyer's refusals both read through it.
 */
export function compiledCatalogs(catalogs: Record<Locale, Record<string, string>>): (locale: Locale) => I18n {
  const instances = new Map<Locale, I18n>()
  return (locale) => {
    let i18n = instances.get(locale)
    if (!i18n) {
      const compiled = Object.fromEntries(
        Object.entries(catalogs[locale]).map(([id, m]) => [id, compileMessage(m)]),
      )
      i18n = setupI18n({ locale, locales: [localeTags[locale]], messages: { [locale]: compiled } })
      instances.set(locale, i18n)
    }
    return i18n
  }
}
