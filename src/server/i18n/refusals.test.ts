import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../../tests/support/test-app'
import { createTestDatabase, pgliteOnly } from '../../../tests/support/test-db'
import { messages as checkoutRuleMessages } from '../../shared/checkout-rules'
import { dashboardMessages } from '../../shared/dashboard'
import { discountMessages } from '../../shared/discounts'
import { ORDER_LINK_MINUTES, orderLinkMessages } from '../../shared/order-links'
import { confirmMessages } from '../../shared/order-status'
import { seedOnce } from '../db/seed'
import { soldOutMessage } from '../keys/reservation'
import { checkoutMessages } from '../orders/checkout-limits'
import ru from './messages/ru.json'
import zh from './messages/zh.json'
import {
  carriedRefusal,
  localizeAnswer,
  type RefusalId,
  refusal,
  refused,
  translateRefusal,
} from './refusals'

describe('the buyer-facing refusals', () => {
  it('has every English refusal the server answers, word for word, under its id', () => {
    const byId = (group: string, texts: Record<string, unknown>) =>
      Object.entries(texts)
        .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
        .map(([key, text]) => [`${group}.${key}`, text] as const)
    const cases: (readonly [string, string, Record<string, string | number>?])[] = [
      ...byId('checkout', checkoutRuleMessages),
      ...byId('checkout', checkoutMessages),
      ...byId('dashboard', dashboardMessages),
      ...byId('orderLinks', orderLinkMessages).map(
        ([id, text]) => [id, text, { minutes: ORDER_LINK_MINUTES }] as const,
      ),
      ...byId('discount', discountMessages).map(
        ([id, text]) => [id === 'discount.tooMany' ? 'tooManyAttempts' : id, text] as const,
      ),
      ...byId('confirm', confirmMessages).map(
        ([id, text]) => [id === 'confirm.tooMany' ? 'tooManyAttempts' : id, text] as const,
      ),
      ['discount.minimum', discountMessages.minimum(1250), { amount: '$12.50' }],
      [
        'confirm.underpaid',
        confirmMessages.underpaid('$10.00', '$49.99'),
        { received: '$10.00', total: '$49.99' },
      ],
      ['checkout.soldOut', soldOutMessage('Proxy Checker'), { name: 'Proxy Checker' }],
      ['checkout.notCancellable', 'This order can no longer be cancelled'],
    ]
    for (const [id, text, values] of cases) {
      const made = refusal(id as RefusalId, values)
      expect(made.text, id).toBe(text)
      expect(translateRefusal(made, 'en')).toBe(text)
      expect(translateRefusal(made, 'zh'), id).not.toBe(text)
      expect(translateRefusal(made, 'ru'), id).not.toBe(text)
    }
  })

  it('keeps the values of a refusal, dollars written as the language writes them', () => {
    expect(translateRefusal(refusal('discount.minimum', { amount: '$12.50' }), 'ru')).toBe(
      'Этот код скидки действует для заказа от 12,50\u00a0$',
    )
    expect(
      translateRefusal(refusal('confirm.underpaid', { received: '$10.00', total: '$49.99' }), 'zh'),
    ).toBe('目前已收到 US$10.00，共需 US$49.99。请将剩余金额发送到同一地址。')
    expect(translateRefusal(refusal('checkout.soldOut', { name: 'Proxy Checker' }), 'zh')).toBe(
      'Proxy Checker 已售罄',
    )
    // A text made without an id (the server's own words) comes back as it is.
    const own = { success: false, error: 'Invalid request: p_code: too short' }
    expect(localizeAnswer(own, 'ru')).toEqual(own)
  })
})

describe('a refusal made by its id', () => {
  it('goes out in English word for word as the shared texts, its id carried off the wire', () => {
    expect(refusal('confirm.notForOrder').text).toBe(confirmMessages.notForOrder)
    expect(refusal('confirm.explorerDown').text).toBe(confirmMessages.explorerDown)
    expect(refusal('tooManyAttempts').text).toBe(confirmMessages.tooMany)
    expect(refusal('tooManyAttempts').text).toBe(discountMessages.tooMany)
    expect(refusal('checkout.tooManyAttempts').text).toBe(checkoutMessages.tooManyAttempts)
    expect(refusal('dashboard.tooMany').text).toBe(dashboardMessages.tooMany)
    expect(refusal('orderLinks.tooMany').text).toBe(orderLinkMessages.tooMany)
    expect(refusal('checkout.unavailable').text).toBe(checkRuleText('unavailable'))
    expect(refusal('checkout.soldOut', { name: 'Proxy Checker' }).text).toBe(soldOutMessage('Proxy Checker'))
    expect(refusal('confirm.underpaid', { received: '$10.00', total: '$49.99' }).text).toBe(
      confirmMessages.underpaid('$10.00', '$49.99'),
    )
    const answer = refused('dashboard.notFound')
    expect(answer).toEqual({ success: false, error: dashboardMessages.notFound })
    expect(JSON.parse(JSON.stringify(answer))).toEqual({ success: false, error: dashboardMessages.notFound })
    expect(carriedRefusal(answer)?.id).toBe('dashboard.notFound')
  })

  it('is written in the buyer language by its id, not found again by its English', () => {
    const answer = refused('confirm.underpaid', { received: '$10.00', total: '$49.99' })
    expect(localizeAnswer(answer, 'zh')).toEqual({
      success: false,
      error: '目前已收到 US$10.00，共需 US$49.99。请将剩余金额发送到同一地址。',
    })
    // Even were its English text reworded, the id still finds the buyer's language.
    const reworded = Object.assign(refused('confirm.held'), { error: 'Reworded in English' })
    expect(localizeAnswer(reworded, 'ru')).toEqual({ success: false, error: ru['confirm.held'] })
  })
})

const checkRuleText = (key: keyof typeof checkoutRuleMessages) => checkoutRuleMessages[key]

describe.each(pgliteOnly)('a refusal over HTTP on %s', (engine) => {
  let t: TestApp
  beforeAll(async () => {
    const database = await createTestDatabase(engine)
    await seedOnce(database.db)
    t = await createTestApp(engine, {}, { database })
  })
  afterAll(() => t.close())

  const check = async (headers: Record<string, string>) =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/rpc/secure_check_discount',
        payload: { p_code: 'NO-SUCH-CODE', p_items: [{ product: { id: 1 }, quantity: 1 }] },
        headers,
      })
    ).json()

  it('answers in the language of the request: its cookie, else Accept-Language, else English', async () => {
    expect(await check({})).toEqual({ success: false, error: discountMessages.unknown })
    expect(await check({ 'accept-language': 'zh-CN,zh;q=0.9' })).toEqual({
      success: false,
      error: '此折扣码不存在',
    })
    expect(await check({ 'accept-language': 'zh-CN', cookie: 'lang=ru' })).toEqual({
      success: false,
      error: 'Такого кода скидки не существует',
    })
    expect(await check({ 'accept-language': 'ru', cookie: 'lang=en' })).toEqual({
      success: false,
      error: discountMessages.unknown,
    })
  })

  it('never goes out in English to a zh or ru buyer', async () => {
    const ask = async (url: string, payload: object, headers: Record<string, string>) =>
      (await t.app.inject({ method: 'POST', url, payload, headers })).json()
    const status = { p_order_id: '00000000-0000-4000-8000-000000000000' }
    const dashboard = { p_access_token: 'no-such-token' }
    for (const [headers, catalogue] of [
      [{ 'accept-language': 'zh-CN' }, zh],
      [{ cookie: 'lang=ru' }, ru],
    ] as const) {
      const unknownOrder = await ask('/rpc/secure_get_order_status', status, headers)
      expect(unknownOrder).toEqual({ success: false, error: catalogue['confirm.unknownOrder'] })
      expect(unknownOrder.error).not.toBe(confirmMessages.unknownOrder)
      const noDashboard = await ask('/rpc/secure_fetch_dashboard', dashboard, headers)
      expect(noDashboard).toEqual({ success: false, error: catalogue['dashboard.notFound'] })
      expect(noDashboard.error).not.toBe(dashboardMessages.notFound)
    }
    expect(await ask('/rpc/secure_get_order_status', status, {})).toEqual({
      success: false,
      error: confirmMessages.unknownOrder,
    })
  })
})
