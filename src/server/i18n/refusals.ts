import { type Locale, pickLocale } from '../../shared/locale'
import { formatUsdCents } from '../delivery/email-i18n'
import { compiledCatalogs } from './compiled-catalogs'
import en from './messages/en.json'
import ru from './messages/ru.json'
import zh from './messages/zh.json'

// The refusals and answers a buyer reads from the server (a discount code that does not apply, a
// transaction hash that does not pay the order, "E-mail me my orders"...), in the buyer's language.
// The modules keep answering their English texts (src/shared/*Messages, word for word, and what
// every server test reads); the RPC layer turns a text English has here into the language of the
// request (its `lang` cookie, else Accept-Language, as the page was chosen), with its values
// ("{amount}") taken from the English text. A text not listed here stays as it is.

export type RefusalId = keyof typeof en

const catalogs: Record<Locale, Record<string, string>> = { en, zh, ru }

interface Pattern {
  id: string
  names: string[]
  regex: RegExp
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** "This code needs at least {amount}" → /^This code needs at least (.+?)$/ naming `amount`. */
function patternOf(id: string, message: string): Pattern {
  const names: string[] = []
  const source = message
    .split(/(\{\w+\})/)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1]
      if (!name) return escapeRegex(part)
      names.push(name)
      return '(.+?)'
    })
    .join('')
  return { id, names, regex: new RegExp(`^${source}$`, 's') }
}

const exact = new Map<string, string>()
const patterns: Pattern[] = []
for (const [id, message] of Object.entries(en)) {
  if (message.includes('{')) patterns.push(patternOf(id, message))
  else if (!exact.has(message)) exact.set(message, id)
}

const instance = compiledCatalogs(catalogs)

/** The id and values of an English refusal this catalogue has, or undefined. */
export function refusalOf(text: string): { id: string; values: Record<string, string | number> } | undefined {
  const id = exact.get(text)
  if (id) return { id, values: {} }
  for (const pattern of patterns) {
    const match = pattern.regex.exec(text)
    if (!match) continue
    const values: Record<string, string | number> = {}
    pattern.names.forEach((name, i) => {
      const value = match[i + 1] ?? ''
      values[name] = /^\d+$/.test(value) ? Number(value) : value
    })
    return { id: pattern.id, values }
  }
  return undefined
}

/** An English refusal in `locale`; a text the catalogue does not have comes back unchanged. */
export function localizeRefusal(text: string, locale: Locale): string {
  if (locale === 'en') return text
  const found = refusalOf(text)
  if (!found) return text
  const values: Record<string, string | number> = {}
  for (const [name, value] of Object.entries(found.values)) {
    // Dollars as the shared rules write them ("$12.50") become the language's way ("12,50 $").
    const dollars = typeof value === 'string' ? /^\$(\d+)\.(\d{2})$/.exec(value) : null
    values[name] = dollars ? formatUsdCents(Number(dollars[1]) * 100 + Number(dollars[2]), locale) : value
  }
  return instance(locale)._(found.id, values)
}

/** The language of a buyer's request: the storefront's choice (cookie), else Accept-Language. */
export function requestLocale(headers: { cookie?: string; 'accept-language'?: string }): Locale {
  return pickLocale({ cookieHeader: headers.cookie, acceptLanguage: headers['accept-language'] })
}

/** A call's answer with its `error` and `message` texts in `locale`. */
export function localizeAnswer(answer: unknown, locale: Locale): unknown {
  if (locale === 'en' || !answer || typeof answer !== 'object' || Array.isArray(answer)) return answer
  const record = answer as Record<string, unknown>
  if (typeof record.error !== 'string' && typeof record.message !== 'string') return answer
  return {
    ...record,
    ...(typeof record.error === 'string' ? { error: localizeRefusal(record.error, locale) } : {}),
    ...(typeof record.message === 'string' ? { message: localizeRefusal(record.message, locale) } : {}),
  }
}
