import { type Locale, pickLocale } from '../../shared/locale'
import { formatUsdCents } from '../delivery/email-i18n'
import { compiledCatalogs } from './compiled-catalogs'
import en from './messages/en.json'
import ru from './messages/ru.json'
import zh from './messages/zh.json'

// The refusals and answers a buyer reads from the server (a discount code that does not apply, a
// transaction hash that does not pay the order, "E-mail me my orders"...), in the buyer's language.
// A refusal is made by its message id and values: `refused(id, values)` answers
// `{ success: false, error }`, `told(id, values)` answers `{ success: true, message }` and
// `new AppError(code, refusal(id, values))` throws one, the text
// written in English from en.json (word for word the src/shared/*Messages texts every server test
// reads) and the id carried beside it, off the wire. The RPC layer writes it again in the language
// of the request (its `lang` cookie, else Accept-Language, as the page was chosen).
// A text made without an id (the server's own words, an admin's refusal) stays as it is.

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

const instance = compiledCatalogs(catalogs)

/** A refusal by id; its values ("{amount}") as the English text writes them ("$12.50"). */
export function refusal(id: RefusalId, values: Record<string, string | number> = {}): Refusal {
  return { id, values, text: instance('en')._(id, values) }
}

type Carried = Refusal & { field: 'error' | 'message' }

function carrying<T extends object>(answer: T, made: Carried): T {
  Object.defineProperty(answer, refusalKey, { value: made, enumerable: false })
  return answer
}

/** A refused call's answer, `{ success: false, error }`, its `error` in English and its id carried. */
export function refused(
  id: RefusalId | Refusal,
  values: Record<string, string | number> = {},
): { success: false; error: string } {
  const made = typeof id === 'string' ? refusal(id, values) : id
  return carrying({ success: false as const, error: made.text }, { ...made, field: 'error' })
}

/** A call's answer that tells the buyer something, `{ success: true, message }`, made by id. */
export function told(
  id: RefusalId,
  values: Record<string, string | number> = {},
): { success: true; message: string } {
  const made = refusal(id, values)
  return carrying({ success: true as const, message: made.text }, { ...made, field: 'message' })
}

/** The text by id an answer made by `refused` or `told` carries (and the field it fills), or undefined. */
export function carriedRefusal(answer: unknown): Carried | undefined {
  if (!answer || typeof answer !== 'object') return undefined
  return (answer as { [refusalKey]?: Carried })[refusalKey]
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

/** The language of a buyer's request: the storefront's choice (cookie), else Accept-Language. */
export function requestLocale(headers: { cookie?: string; 'accept-language'?: string }): Locale {
  return pickLocale({ cookieHeader: headers.cookie, acceptLanguage: headers['accept-language'] })
}

/** A call's answer with the text it carries by id (its `error` or `message`) in `locale`. */
export function localizeAnswer(answer: unknown, locale: Locale): unknown {
  if (locale === 'en') return answer
  const made = carriedRefusal(answer)
  return made ? { ...(answer as object), [made.field]: translateRefusal(made, locale) } : answer
}
