// The storefront's and the admin's messages: ICU message strings in messages/<area>/<locale>.json,
// compiled at build time (messages-plugin.ts) and formatted at run time by Lingui. Components call
// `const t = useT()` then `t('cart.title')`, `t('cart.items', { count })`; docs/i18n.md says how.
import { type I18n, setupI18n } from '@lingui/core'
import { Trans, useLingui } from '@lingui/react'
import { type ReactElement, useMemo } from 'react'
import type { TokenSymbol } from '../../shared/chains'
import { defaultLocale, isLocale, type Locale, localeTags } from '../../shared/locale'
import type adminEn from './messages/admin/en.json'
import type buyEn from './messages/buy/en.json'
import type shopEn from './messages/shop/en.json'

export type ShopMessageId = keyof typeof shopEn | keyof typeof buyEn
export type AdminMessageId = keyof typeof adminEn
export type MessageId = ShopMessageId | AdminMessageId
export type MessageValues = Record<string, string | number>
export type Translate = (id: MessageId, values?: MessageValues) => string

type Catalog = Record<string, unknown>
type Loader = () => Promise<{ default: Catalog }>

// One chunk per area and language: a page downloads only the language it shows. The catalogue
// pages need only `shop`; the cart, checkout, payment, dashboard and order pages bring `buy`
// with their own chunk (loadBuyMessages), so a first visit downloads neither.
const shopCatalogs: Record<Locale, Loader> = {
  en: () => import('./messages/shop/en.json'),
  zh: () => import('./messages/shop/zh.json'),
  ru: () => import('./messages/shop/ru.json'),
}
const buyCatalogs: Record<Locale, Loader> = {
  en: () => import('./messages/buy/en.json'),
  zh: () => import('./messages/buy/zh.json'),
  ru: () => import('./messages/buy/ru.json'),
}
const adminCatalogs: Record<Locale, Loader> = {
  en: () => import('./messages/admin/en.json'),
  zh: () => import('./messages/admin/zh.json'),
  ru: () => import('./messages/admin/ru.json'),
}
export type Area = 'shop' | 'buy' | 'admin'
const catalogs: Record<Area, Record<Locale, Loader>> = {
  shop: shopCatalogs,
  buy: buyCatalogs,
  admin: adminCatalogs,
}

export function createI18n(): I18n {
  return setupI18n()
}

/** The storefront's instance; the admin has its own (its own language choice). */
export const shopI18n = createI18n()
export const adminI18n = createI18n()

const loaded = new WeakMap<I18n, Set<string>>()
const areasOf = new WeakMap<I18n, Set<Area>>()

/**
 * Downloads an area's messages in a language (once) and switches the instance to it. The areas
 * the instance already has in another language come along, so a switch keeps every page's texts.
 */
export async function activate(i18n: I18n, locale: Locale, areas: Area[] = ['shop']): Promise<void> {
  const done = loaded.get(i18n) ?? new Set<string>()
  loaded.set(i18n, done)
  const wanted = areasOf.get(i18n) ?? new Set<Area>()
  areasOf.set(i18n, wanted)
  for (const area of areas) wanted.add(area)
  await Promise.all(
    [...wanted]
      .filter((area) => !done.has(`${area}:${locale}`))
      .map(async (area) => {
        const { default: messages } = await catalogs[area][locale]()
        i18n.load(locale, messages as never)
        done.add(`${area}:${locale}`)
      }),
  )
  if (i18n.locale !== locale) i18n.activate(locale, [localeTags[locale]])
}

/** The buying pages' messages in the storefront's language, before such a page renders. */
export function loadBuyMessages(): Promise<void> {
  return activate(shopI18n, isLocale(shopI18n.locale) ? shopI18n.locale : documentLocale(), ['buy'])
}

/** Server rendering: messages already in memory, the instance active at once. */
export function activateWith(i18n: I18n, locale: Locale, messages: Catalog): I18n {
  i18n.load(locale, messages as never)
  i18n.activate(locale, [localeTags[locale]])
  return i18n
}

/** The language the server rendered the page in (<html lang>). */
export function documentLocale(): Locale {
  const tag = typeof document === 'undefined' ? '' : document.documentElement.lang
  const locale = tag.split('-')[0]
  return isLocale(locale) ? locale : defaultLocale
}

export function useLocale(): Locale {
  const { i18n } = useLingui()
  return isLocale(i18n.locale) ? i18n.locale : defaultLocale
}

/** The message function of the language shown. */
export function useT(): Translate {
  return useLingui()._ as Translate
}

/** The tokens the shop is paid in. */
export type { TokenSymbol }

/** Money, numbers and dates as the language writes them (Intl). Each format is made on first use. */
export function formatters(locale: Locale) {
  const tag = localeTags[locale]
  const once = <T>(make: () => T) => {
    let made: T | undefined
    return () => {
      made ??= make()
      return made
    }
  }
  const usd = once(
    () => new Intl.NumberFormat(tag, { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }),
  )
  const usdRate = once(
    () =>
      new Intl.NumberFormat(tag, {
        style: 'currency',
        currency: 'USD',
        minimumFractionDigits: 2,
        maximumFractionDigits: 6,
      }),
  )
  // Token amounts keep every decimal the chain gave (TRON's tokens have 6, BNB Smart Chain's 18) and
  // show at least cents.
  const tokenFormats = new Map<number, Intl.NumberFormat>()
  const token = (decimals: number) => {
    let format = tokenFormats.get(decimals)
    if (!format) {
      const digits = Math.min(100, Math.max(2, decimals))
      format = new Intl.NumberFormat(tag, { minimumFractionDigits: 2, maximumFractionDigits: digits })
      tokenFormats.set(decimals, format)
    }
    return format
  }
  const dateTime = once(() => new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' }))
  const date = once(() => new Intl.DateTimeFormat(tag, { dateStyle: 'medium' }))
  const time = once(() => new Intl.DateTimeFormat(tag, { timeStyle: 'medium' }))
  return {
    /** Dollars as the answers carry them, e.g. 49.99 → "$49.99", "US$49.99", "49,99 $". */
    usd: (dollars: number) => usd().format(dollars),
    /**
     * An amount of a token with its symbol, as the answers carry it (a number or a decimal string,
     * formatted digit for digit, up to the token's decimals, default 6), e.g. "199.96" → "199.96 TRX",
     * "199,96 TRX"; 1234.5 → "1,234.50 USDT"; ("1.000000000000000001", …, 18) keeps the last digit.
     */
    token: (amount: number | string, symbol: TokenSymbol, decimals = 6) =>
      // Intl formats a decimal string digit for digit (no rounding through a float); a string keeps
      // every decimal it has ("0.000000000000000001" is never shown as 0.00).
      `${token(typeof amount === 'string' ? Math.max(decimals, amount.split('.')[1]?.length ?? 0) : decimals).format(amount as Intl.StringNumericLiteral)}\u00a0${symbol}`,
    /** A price per token in dollars, to the rate's last digit (at least cents), e.g. "$0.2451". */
    rate: (dollars: number | string) => usdRate().format(dollars as Intl.StringNumericLiteral),
    number: (value: number, options?: Intl.NumberFormatOptions) =>
      new Intl.NumberFormat(tag, options).format(value),
    dateTime: (value: Date | string | number) => dateTime().format(new Date(value)),
    date: (value: Date | string | number) => date().format(new Date(value)),
    time: (value: Date | string | number) => time().format(new Date(value)),
  }
}

/** Makes the number formats the catalogue pages use once, so their locale data is loaded. */
export function warmUpIntl(locale: Locale): void {
  const tag = localeTags[locale]
  new Intl.PluralRules(tag).select(1)
  new Intl.NumberFormat(tag).format(1)
  formatters(locale).usd(1)
}
export type Formatters = ReturnType<typeof formatters>

export function useFormat(): Formatters {
  const locale = useLocale()
  return useMemo(() => formatters(locale), [locale])
}

/**
 * A message with markup: `<0>…</0>` in the message is rendered with `components[0]`, e.g.
 * <Msg id="success.received" values={{ amount }} components={{ 0: <strong /> }} />.
 */
export const Msg = Trans as (props: {
  id: MessageId
  /** Texts and numbers, or an element put in the value's place (e.g. an <EmailAddress />). */
  values?: Record<string, string | number | ReactElement>
  components?: Record<string, ReactElement>
}) => ReactElement
