// The languages the shop speaks, and how a request picks one. Shared by the server (first paint,
// e-mail) and the browser (switcher); no schema library here so the storefront's first load stays small.

export const locales = ['en', 'zh', 'ru'] as const
export type Locale = (typeof locales)[number]
export const defaultLocale: Locale = 'en'

/** Each language's name in itself, for the switcher. */
export const localeNames: Record<Locale, string> = { en: 'English', zh: '简体中文', ru: 'Русский' }

/** The BCP 47 tag for <html lang> and Intl (Simplified Chinese as written in mainland China). */
export const localeTags: Record<Locale, string> = { en: 'en', zh: 'zh-CN', ru: 'ru' }

/** The buyer's choice (storefront) and the operator's (admin), remembered apart. */
export const LOCALE_COOKIE = 'lang'
export const ADMIN_LOCALE_COOKIE = 'admin_lang'
/** A link carrying ?lang=ru opens in that language (and remembers it). */
export const LOCALE_PARAM = 'lang'

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value)
}

/** "zh-CN", "zh-Hans-SG", "ru-RU", "EN" → a locale of ours, or undefined. Traditional Chinese is not ours. */
export function localeOfTag(tag: string): Locale | undefined {
  const parts = tag.trim().toLowerCase().split(/[-_]/)
  const language = parts[0]
  if (language === 'zh') {
    const rest = parts.slice(1)
    if (rest.includes('hant') || rest.includes('tw') || rest.includes('hk') || rest.includes('mo'))
      return undefined
    return 'zh'
  }
  return isLocale(language) ? language : undefined
}

/** The best of our locales for an Accept-Language header (by q-value, then order); English when none fits. */
export function negotiateLocale(acceptLanguage: string | undefined): Locale {
  if (!acceptLanguage) return defaultLocale
  const ranges = acceptLanguage
    .slice(0, 1000)
    .split(',')
    .slice(0, 30)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      const weight = q === undefined ? 1 : Number(q.slice(2))
      return { tag, weight: Number.isFinite(weight) ? weight : 0, index }
    })
    .filter((r) => r.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
  for (const range of ranges) {
    const locale = localeOfTag(range.tag)
    if (locale) return locale
  }
  return defaultLocale
}

/** A cookie's value from a Cookie header, without a cookie library (the browser has none). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=')
    if (key === name) return value.join('=')
  }
  return undefined
}

/**
 * The language of a page: a ?lang= link first, then the remembered choice, then the browser's
 * languages. The admin remembers its own choice.
 */
export function pickLocale(input: {
  query?: string | null
  cookieHeader?: string
  acceptLanguage?: string
  admin?: boolean
}): Locale {
  if (isLocale(input.query)) return input.query
  const remembered = readCookie(input.cookieHeader, input.admin ? ADMIN_LOCALE_COOKIE : LOCALE_COOKIE)
  if (isLocale(remembered)) return remembered
  return negotiateLocale(input.acceptLanguage)
}
