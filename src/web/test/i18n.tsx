// The components' messages in tests: English (the specification's texts) unless a test asks for
// another language, as the shop renders them.
import type { I18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import type { ReactNode } from 'react'
import type { Locale } from '../../shared/locale'
import { activateWith, createI18n } from '../i18n/i18n'
import adminEn from '../i18n/messages/admin/en.json'
import adminRu from '../i18n/messages/admin/ru.json'
import adminZh from '../i18n/messages/admin/zh.json'
import buyEn from '../i18n/messages/buy/en.json'
import buyRu from '../i18n/messages/buy/ru.json'
import buyZh from '../i18n/messages/buy/zh.json'
import shopEn from '../i18n/messages/shop/en.json'
import shopRu from '../i18n/messages/shop/ru.json'
import shopZh from '../i18n/messages/shop/zh.json'

export const testI18n = activateWith(createI18n(), 'en', { ...shopEn, ...buyEn, ...adminEn })

const others: Partial<Record<Locale, I18n>> = { en: testI18n }

/** Every message of the shop in `locale`, the instance active in it. */
export function testI18nIn(locale: Locale): I18n {
  others[locale] ??= activateWith(
    createI18n(),
    locale,
    locale === 'ru' ? { ...shopRu, ...buyRu, ...adminRu } : { ...shopZh, ...buyZh, ...adminZh },
  )
  return others[locale]
}

export function WithI18n({ children, i18n = testI18n }: { children: ReactNode; i18n?: I18n }) {
  return <I18nProvider i18n={i18n}>{children}</I18nProvider>
}
