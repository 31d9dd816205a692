import { format } from 'date-fns'
import { useMemo } from 'react'
import { type Locale, localeTags } from '../../../../shared/locale'
import { type Translate, useLocale, useT } from '../../../i18n/i18n'

/**
 * The admin's dates and order items: English as the specification has them ('MMM d, yyyy HH:mm'),
 * other languages as Intl writes them; an unreadable value says so instead of breaking the table.
 */
export function orderFormat(t: Translate, locale: Locale) {
  const intl =
    locale === 'en'
      ? null
      : new Intl.DateTimeFormat(localeTags[locale], {
          year: 'numeric',
          month: 'short',
          day: 'numeric',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        })
  return {
    date(value: unknown): string {
      try {
        const date = new Date(value as string)
        if (Number.isNaN(date.getTime())) return t('admin.invalidDate')
        return intl ? intl.format(date) : format(date, 'MMM d, yyyy HH:mm')
      } catch {
        return t('admin.invalidDate')
      }
    },
    /** "Name × 2, Other × 1" from the items array or its JSON text. */
    items(value: unknown): string {
      try {
        const items = typeof value === 'string' ? JSON.parse(value) : value
        if (!Array.isArray(items)) return t('admin.invalidItems')
        return items
          .map((item: { product: { name: string }; quantity: number }) => {
            if (typeof item.product.name !== 'string') throw new Error('no name')
            return `${item.product.name} × ${item.quantity}`
          })
          .join(', ')
      } catch {
        return t('admin.invalidItems')
      }
    },
  }
}

export function useOrderFormat() {
  const t = useT()
  const locale = useLocale()
  return useMemo(() => orderFormat(t, locale), [t, locale])
}
