// The components' messages in tests: English (the specification's texts), as the shop renders them.
import { I18nProvider } from '@lingui/react'
import type { ReactNode } from 'react'
import { activateWith, createI18n } from '../i18n/i18n'
import adminEn from '../i18n/messages/admin/en.json'
import buyEn from '../i18n/messages/buy/en.json'
import shopEn from '../i18n/messages/shop/en.json'

export const testI18n = activateWith(createI18n(), 'en', { ...shopEn, ...buyEn, ...adminEn })

export function WithI18n({ children }: { children: ReactNode }) {
  return <I18nProvider i18n={testI18n}>{children}</I18nProvider>
}
