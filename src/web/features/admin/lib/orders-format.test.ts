import { describe, expect, it } from 'vitest'
import { activateWith, createI18n, type Translate } from '../../../i18n/i18n'
import adminEn from '../../../i18n/messages/admin/en.json'
import adminRu from '../../../i18n/messages/admin/ru.json'
import { orderFormat } from './orders-format'

const translator = (locale: 'en' | 'ru', messages: Record<string, string>): Translate => {
  const i18n = activateWith(createI18n(), locale, messages)
  return (id, values) => i18n._(id, values)
}
const en = orderFormat(translator('en', adminEn), 'en')
const ru = orderFormat(translator('ru', adminRu), 'ru')

describe('order formatting', () => {
  it("dates as 'MMM d, yyyy HH:mm' in English, as Intl writes them in Russian, or 'Invalid date'", () => {
    const date = new Date(2026, 10, 3, 9, 5).toISOString()
    expect(en.date(date)).toBe('Nov 3, 2026 09:05')
    expect(ru.date(date)).toBe('3 нояб. 2026 г., 09:05')
    expect(en.date('not a date')).toBe('Invalid date')
    expect(en.date(undefined)).toBe('Invalid date')
    expect(ru.date('not a date')).toBe('Неверная дата')
  })

  it("items from an array or its JSON text, or 'Invalid items'", () => {
    const items = [
      { product: { name: 'A' }, quantity: 2 },
      { product: { name: 'B' }, quantity: 1 },
    ]
    expect(en.items(items)).toBe('A × 2, B × 1')
    expect(en.items(JSON.stringify(items))).toBe('A × 2, B × 1')
    expect(en.items('{broken')).toBe('Invalid items')
    expect(en.items([{ quantity: 1 }])).toBe('Invalid items')
    expect(en.items({})).toBe('Invalid items')
  })
})
