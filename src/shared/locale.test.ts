import { describe, expect, it } from 'vitest'
import { negotiateLocale, pickLocale } from './locale'

describe('choosing a language', () => {
  it('takes the best of ours from Accept-Language, by weight then order', () => {
    expect(negotiateLocale('zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh')
    expect(negotiateLocale('de-DE, ru;q=0.7, en;q=0.5')).toBe('ru')
    expect(negotiateLocale('en;q=0.4, ru-RU;q=0.9')).toBe('ru')
    expect(negotiateLocale('zh-Hans-SG')).toBe('zh')
    // Traditional Chinese is not Simplified Chinese.
    expect(negotiateLocale('zh-TW, en;q=0.5')).toBe('en')
    expect(negotiateLocale('de, fr')).toBe('en')
    expect(negotiateLocale('ru;q=0, zh;q=garbage')).toBe('en')
    expect(negotiateLocale(undefined)).toBe('en')
    expect(negotiateLocale('x'.repeat(5000))).toBe('en')
  })

  it('puts a ?lang= link first, then the remembered choice, then the browser', () => {
    const browser = 'zh-CN'
    expect(pickLocale({ query: 'ru', cookieHeader: 'lang=en', acceptLanguage: browser })).toBe('ru')
    expect(pickLocale({ query: 'xx', cookieHeader: 'a=1; lang=ru', acceptLanguage: browser })).toBe('ru')
    expect(pickLocale({ cookieHeader: 'lang=klingon', acceptLanguage: browser })).toBe('zh')
    // The admin remembers its own choice, apart from the storefront's.
    expect(pickLocale({ cookieHeader: 'lang=ru; admin_lang=en', acceptLanguage: browser, admin: true })).toBe(
      'en',
    )
    expect(pickLocale({ cookieHeader: 'lang=ru', acceptLanguage: browser, admin: true })).toBe('zh')
  })
})
