import { type Locale, pickLocale } from '../../shared/locale'
import { formatUsdCents } from '../delivery/email-i18n'
import { compiledCatalogs } from './compiled-catalogs'
import en from './messages/en.json'
import ru from './messages/ru.json'
import zh from './messages/zh.json'

// The refusals and answers a buyer reads from the server (a discount code that does not apply, a
// transaction hash that does not pay the order, "E-mail me my orders"...), in the buyer's language.
// A refusal is made by its message id and values: `refused(id, values)` answers
// `{ success: false, error }` and `new AppError(code, refusal(id, values))` throws one, the `error`
// written in English from en.json (word for word the src/shared/*Messages texts every server test
// reads) and the id carried beside it, off the wire. The RPC layer writes it again in the language
// of the request (its `lang` cookie, else Accept-Language, as the page was chosen).
// Refusals still made as bare English strings are found by their text (`refusalOf`) until each is
// made by id; a text not listed here stays as it is.

export type RefusalId = keyof typeof en

/** A refusal by its message id and values, with its English text. */
export interface Refusal {
  id: RefusalId
  values: Record<string, string | number>
  /** The English text, as it goes out to an English-speaking buyer (and in the logs). */
  text: string
}

/** The id a refused answer carries beside its English `error`; a symbol, so never serialised. */
const refusalKey = Symbol('refusal')

const catalogs: Record<Locale, Record<string, string>> = { en, zh, ru }

interface Pattern {
  id: RefusalId
  names: string[]
  regex: RegExp
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** "This code needs at least {amount}" → /^This code needs at least (.+?)$/ naming `amount`. */
function patternOf(id: RefusalId, message: string): Pattern {
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

const exact = new Map<string, RefusalId>()
const patterns: Pattern[] = []
for (const [id, message] of Object.entries(en) as [RefusalId, string][]) {
  if (message.includes('{')) patterns.push(patternOf(id, message))
  else if (!exact.has(message)) exact.set(message, id)
}

const instance = compiledCatalogs(catalogs)

/** A refusal by id; its values ("{amount}") as the English text writes them ("$12.50"). */
export function refusal(id: RefusalId, values: Record<string, string | number> = {}): Refusal {
  return { id, values, text: instance('en')._(id, values) }
}

/** A refused call's answer, `{ success: false, error }`, its `error` in English and its id carried. */
export function refused(
  id: RefusalId | Refusal,
  values: Record<string, string | number> = {},
): { success: false; error: string } {
  const made = typeof id === 'string' ? refusal(id, values) : id
  const answer = { success: false as const, error: made.text }
  Object.defineProperty(answer, refusalKey, { value: made, enumerable: false })
  return answer
}

/** The refusal an answer made by `refused` carries, or undefined. */
export function carriedRefusal(answer: unknown): Refusal | undefined {
  if (!answer || typeof answer !== 'object') return undefined
  return (answer as { [refusalKey]?: Refusal })[refusalKey]
}

/** A refusal in `locale`, its dollar values written as the language writes them. */
export function translateRefusal(made: Pick<Refusal, 'id' | 'values'>, locale: Locale): string {
  const values: Record<string, string | number> = {}
  for (const [name, value] of Object.entries(made.values)) {
    // Dollars as the shared rules write them ("$12.50") become the language's way ("12,50 $").
    const dollars = typeof value === 'string' ? /^\$(\d+)\.(\d{2})$/.exec(value) : null
    values[name] = dollars ? formatUsdCents(Number(dollars[1]) * 100 + Number(dollars[2]), locale) : value
  }
  return instance(locale)._(made.id, values)
}

/** The id and values of an English refusal this catalogue has, or undefined. */
export function refusalOf(
  text: string,
): { id: RefusalId; values: Record<string, string | number> } | undefined {
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
  return found ? translateRefusal(found, locale) : text
}

/** The language of a buyer's request: the storefront's choice (cookie), else Accept-Language. */
export function requestLocale(headers: { cookie?: string; 'accept-language'?: string }): Locale {
  return pickLocale({ cookieHeader: headers.cookie, acceptLanguage: headers['accept-language'] })
}

/** A call's answer with its `error` and `message` texts in `locale`. */
export function localizeAnswer(answer: unknown, locale: Locale): unknown {
  if (locale === 'en' || !answer || typeof answer !== 'object' || Array.isArray(answer)) return answer
  const made = carriedRefusal(answer)
  if (made) return { ...answer, error: translateRefusal(made, locale) }
  const record = answer as Record<string, unknown>
  if (typeof record.error !== 'string' && typeof record.message !== 'string') return answer
  return {
    ...record,
    ...(typeof record.error === 'string' ? { error: localizeRefusal(record.error, locale) } : {}),
    ...(typeof record.message === 'string' ? { message: localizeRefusal(record.message, locale) } : {}),
  }
}
