import { describe, expect, it } from 'vitest'
import { makeProduct } from '../../../tests/support/product'
import { selectProducts } from '../../shared/catalog-filter'
import { localizeProduct } from '../../shared/localize'
import type { Product } from '../../shared/product'
import { activate, createI18n, formatters, type Translate } from './i18n'

async function translator(locale: 'en' | 'zh' | 'ru'): Promise<Translate> {
  const i18n = createI18n()
  await activate(i18n, locale, ['shop', 'buy'])
  return (id, values) => i18n._(id, values)
}

describe('messages', () => {
  it("load the buying pages' texts only when asked, and keep them through a switch of language", async () => {
    const i18n = createI18n()
    await activate(i18n, 'ru')
    expect(i18n._('header.cart', { count: 2 })).toBe('Корзина, 2 товара')
    // Not downloaded with the catalogue's: the id is all there is.
    expect(i18n._('cart.empty.title')).toBe('cart.empty.title')
    await activate(i18n, 'ru', ['buy'])
    expect(i18n._('cart.empty.title')).not.toBe('cart.empty.title')
    // The switcher asks for the storefront's area only; the buying texts come along.
    await activate(i18n, 'en', ['shop'])
    expect(i18n._('cart.empty.title')).toBe('Your Cart is Empty')
  })

  it('write Russian plurals for 1, 2, 5 and 21 (keys and items)', async () => {
    const t = await translator('ru')
    expect([1, 2, 5, 21].map((count) => t('header.cart', { count }))).toEqual([
      'Корзина, 1 товар',
      'Корзина, 2 товара',
      'Корзина, 5 товаров',
      'Корзина, 21 товар',
    ])
    expect([1, 2, 5, 21].map((count) => t('dashboard.keys', { count }))).toEqual([
      'Ваш ключ',
      'Ваши ключи',
      'Ваши ключи',
      'Ваш ключ',
    ])
  })

  it('keep the English texts word for word, with English plurals', async () => {
    const t = await translator('en')
    expect(t('header.cart', { count: 1 })).toBe('Cart, 1 item')
    expect(t('header.cart', { count: 2 })).toBe('Cart, 2 items')
    expect(t('catalog.sort.featured')).toBe('Sort by: Featured')
    expect(t('cart.empty.title')).toBe('Your Cart is Empty')
  })

  it('format money, counts and dates with Intl for the language', () => {
    expect(formatters('en').usd(1234.5)).toBe('$1,234.50')
    // Russian groups thousands and sets the sign apart with no-break spaces.
    expect(formatters('ru').usd(1234.5)).toBe('1\u00a0234,50\u00a0$')
    expect(formatters('zh').usd(49.99)).toBe('US$49.99')
    expect(formatters('ru').number(1234567)).toBe('1\u00a0234\u00a0567')
    expect(formatters('zh').date('2026-11-25T12:00:00Z')).toBe('2026年11月25日')
  })

  it('format USDT and TRX amounts for the language, every decimal the chain gave kept', () => {
    expect(formatters('en').token('199.96', 'TRX')).toBe('199.96\u00a0TRX')
    expect(formatters('ru').token('199.96', 'TRX')).toBe('199,96\u00a0TRX')
    expect(formatters('zh').token('199.96', 'TRX')).toBe('199.96\u00a0TRX')
    expect(formatters('ru').token(1234.5, 'USDT')).toBe('1\u00a0234,50\u00a0USDT')
    // A decimal string is formatted digit for digit, past what a float holds.
    expect(formatters('en').token('12345678901.000001', 'TRX')).toBe('12,345,678,901.000001\u00a0TRX')
    // An 18-decimal token keeps its last digit; trailing zeros go down to cents.
    expect(formatters('en').token('1.000000000000000001', 'USDT', 18)).toBe('1.000000000000000001\u00a0USDT')
    expect(formatters('ru').token('12.500000000000000000', 'USDC', 18)).toBe('12,50\u00a0USDC')
    expect(formatters('ru').rate('0.2451')).toBe('0,2451\u00a0$')
    expect(formatters('en').rate('0.25')).toBe('$0.25')
  })
})

describe('operator texts per language', () => {
  const product = (id: number, name: string, translations?: Product['translations']): Product =>
    makeProduct(id, { name, description: `About ${name}`, image: '', features: ['Fast'], translations })
  const manager = product(1, 'Proxy Manager', {
    zh: { name: '代理管理器', features: ['快速'] },
    ru: { name: '' },
  })
  const checker = product(2, 'Proxy Checker')

  it('fall back to English when a language has no text', () => {
    expect(localizeProduct(manager, 'zh')).toMatchObject({
      name: '代理管理器',
      description: 'About Proxy Manager',
      features: ['快速'],
    })
    expect(localizeProduct(manager, 'ru')).toMatchObject({ name: 'Proxy Manager', features: ['Fast'] })
    expect(localizeProduct(checker, 'zh').name).toBe('Proxy Checker')
  })

  it('are what the search finds in the language shown', () => {
    const shown = [manager, checker].map((p) => localizeProduct(p, 'zh'))
    expect(
      selectProducts(shown, { search: '管理', filter: 'all', sort: 'featured' }).map((p) => p.id),
    ).toEqual([1])
    expect(
      selectProducts(shown, { search: 'checker', filter: 'all', sort: 'featured' }).map((p) => p.id),
    ).toEqual([2])
  })
})
