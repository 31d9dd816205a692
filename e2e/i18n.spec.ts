import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext } from '@playwright/test'
import { simpleParser } from 'mailparser'
import { ownShopForThisFile } from './support/own-shop'
import { shoot } from './support/screens'
import { expect, interactiveContext, type Page, test } from './support/test'

// Languages, on a shop of their own (its outbox is read as the buyer's mailbox).
const PASSWORD = 'e2e-i18n-password'

const shop = ownShopForThisFile({ ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: PASSWORD }, 'i18n')

const words = {
  en: { addToCart: 'Add to Cart', email: 'Email address', pay: 'Continue to Payment', cancel: 'Cancel' },
  zh: { addToCart: '加入购物车', email: '电子邮箱', pay: '继续付款', cancel: '取消' },
  ru: { addToCart: 'В корзину', email: 'Адрес e-mail', pay: 'Перейти к оплате', cancel: 'Отменить' },
} as const
type Lang = keyof typeof words

/** A browser set to `locale` (its Accept-Language), having chosen `lang` in the switcher before if given. */
async function context(browser: Browser, locale: string, lang?: Lang) {
  const ctx = await interactiveContext(browser, { baseURL: shop.url, locale })
  if (lang) await ctx.addCookies([{ name: 'lang', value: lang, url: shop.url }])
  return ctx
}

/** Puts the first product in the cart and places the order: the page is then the payment page. */
async function toPayment(page: Page, lang: Lang, email: string) {
  await page.goto('/')
  await page.getByRole('button', { name: words[lang].addToCart }).first().click()
  await page.goto('/checkout')
  await page.getByLabel(words[lang].email).fill(email)
  await page.getByRole('button', { name: words[lang].pay }).click()
  await expect(page).toHaveURL(/\/payment$/)
  const address = await page.locator('textarea[readonly]').first().inputValue()
  // "$49.99", "US$49.99", "49,99 $": the digits, with a decimal point.
  const shown = (await page.getByTestId('pay-amount').textContent()) ?? ''
  const amount = shown.replace(/[^\d,.]/g, '').replace(',', '.')
  return { address, amount }
}

test('a first visit in Chinese is rendered in Chinese by the server, then the switcher moves to Russian for good', async ({
  browser,
}) => {
  // Without scripts: what the server sent is all there is.
  const bare = await browser.newContext({
    baseURL: shop.url,
    javaScriptEnabled: false,
    locale: 'zh-CN',
  })
  const raw = await bare.newPage()
  const response = await raw.goto('/')
  const html = (await response?.text()) ?? ''
  expect(/<html lang="[^"]*"/.exec(html)?.[0]).toBe('<html lang="zh-CN"')
  expect(html.includes('View Products')).toBe(false)
  await expect(raw.getByRole('link', { name: '查看产品' })).toBeVisible()
  await expect(raw.getByRole('heading', { name: '移动代理软件，即时交付' })).toBeVisible()
  await expect(raw.getByPlaceholder('搜索产品…')).toBeVisible()
  expect(await raw.title()).toBe('Stablecart — 移动代理软件')
  // The product's video is a poster until the page is idle: no player in what the server sends.
  await raw.goto('/product/1')
  await expect(raw.getByRole('button', { name: /^播放 .+ 的视频$/ })).toBeVisible()
  await expect(raw.locator('iframe')).toHaveCount(0)
  await bare.close()

  const ctx = await context(browser, 'zh-CN')
  const page = await ctx.newPage()
  await page.goto('/')
  await expect(page.getByRole('link', { name: '查看产品' })).toBeVisible()
  const switcher = page.getByRole('combobox', { name: '语言' })
  await switcher.focus()
  await switcher.selectOption('ru')
  await expect(page.getByRole('link', { name: 'Смотреть товары' })).toBeVisible()
  await expect(page.getByRole('combobox', { name: 'Язык' })).toHaveValue('ru')
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('ru')
  await page.reload()
  await expect(page.getByRole('link', { name: 'Смотреть товары' })).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('ru')
  // A shared link opens in its language.
  await page.goto('/product/1?lang=en')
  await expect(page.getByRole('link', { name: 'Back to Products' })).toBeVisible()
  await expect(
    page.getByRole('button', { name: 'Play the video of 4G Mobile Proxy Manager Pro' }),
  ).toBeVisible()
  // The poster becomes the player by itself once the page has been quiet for a while.
  await expect(page.locator('iframe')).toHaveAttribute('title', /^4G Mobile Proxy Manager Pro video$/, {
    timeout: 30_000,
  })
  await ctx.close()
})

test('a purchase in Russian sends the e-mail in Russian and its link opens the dashboard in Russian', async ({
  browser,
}) => {
  const ctx = await context(browser, 'en-US', 'ru')
  const page = await ctx.newPage()
  const email = 'ru-buyer@example.com'
  const { address, amount } = await toPayment(page, 'ru', email)
  const sent = await page.request.post(`${shop.devchainUrl}/_sim/transfers`, {
    data: { to: address, amount, token: 'USDT' },
  })
  expect(sent.ok()).toBe(true)
  expect((await page.request.post(`${shop.devchainUrl}/_sim/mine`, { data: { blocks: 20 } })).ok()).toBe(true)
  await expect(page.getByRole('dialog', { name: 'Оплата прошла' })).toBeVisible({ timeout: 15_000 })

  let mail: Awaited<ReturnType<typeof simpleParser>> | undefined
  await expect(async () => {
    for (const file of readdirSync(shop.outbox)) {
      const parsed = await simpleParser(readFileSync(join(shop.outbox, file)))
      if (parsed.to && !Array.isArray(parsed.to) && parsed.to.text === email) mail = parsed
    }
    expect(mail).toBeDefined()
  }).toPass({ timeout: 15_000 })
  expect(mail?.subject).toMatch(/^Ваш заказ [0-9a-f]{8} в Stablecart SOFTWARE: лицензионные ключи внутри$/)
  expect(mail?.text).toContain('Спасибо за покупку')
  const link = /http:\/\/\S+\/dashboard\/[\w-]+\?lang=ru/.exec(mail?.text ?? '')?.[0]
  expect(link).toBeDefined()

  // Opened in another browser that speaks English: the link's language wins.
  const other = await context(browser, 'en-US')
  const dashboard = await other.newPage()
  await dashboard.goto(link as string)
  await expect(dashboard.getByRole('heading', { name: 'Ваша покупка' })).toBeVisible()
  await expect(dashboard.getByRole('heading', { name: 'Ваш ключ' })).toBeVisible()
  expect(await dashboard.evaluate(() => document.documentElement.lang)).toBe('ru')
  await other.close()
  await ctx.close()
})

test('screenshots: listing, payment page and admin orders at 375 and 1440 px in each language', async ({
  browser,
}) => {
  test.setTimeout(120_000)
  for (const lang of Object.keys(words) as Lang[]) {
    const ctx: BrowserContext = await context(browser, 'en-US', lang)
    const page = await ctx.newPage()
    await page.goto('/')
    await shoot(page, `i18n-listing-${lang}`)
    await toPayment(page, lang, `${lang}-screens@example.com`)
    await shoot(page, `i18n-payment-${lang}`)
    // Ends the order so its address is free for the next language.
    await page.getByRole('button', { name: words[lang].cancel, exact: true }).click()
    await page.getByRole('dialog').getByRole('button').last().click()
    await expect(page).toHaveURL(/\/cart$/)

    await ctx.addCookies([{ name: 'admin_lang', value: lang, url: shop.url }])
    await page.goto('/admin/login')
    await page.locator('input[autocomplete="username"]').fill('admin')
    await page.locator('input[type="password"]').fill(PASSWORD)
    await page.locator('form button[type="submit"]').click()
    await expect(page).toHaveURL(/\/admin$/)
    await expect(page.getByRole('row').nth(1)).toBeVisible()
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang === 'zh' ? 'zh-CN' : lang)
    await shoot(page, `i18n-admin-orders-${lang}`)
    await ctx.close()
  }
})

test('the operator writes a product and the hero in Chinese: the shop shows them, searches them, and shows English where Russian is empty', async ({
  browser,
}) => {
  const admin = await context(browser, 'en-US')
  const page = await admin.newPage()
  await page.goto('/admin/login')
  await page.locator('input[autocomplete="username"]').fill('admin')
  await page.locator('input[type="password"]').fill(PASSWORD)
  await page.locator('form button[type="submit"]').click()
  await expect(page).toHaveURL(/\/admin$/)

  await page.goto('/admin/products')
  await page.getByRole('button', { name: 'Edit 4G Mobile Proxy Manager Pro' }).click()
  // The English name is what an empty translation shows, and the form says so.
  await expect(page.getByLabel('Name (Русский)')).toHaveAttribute(
    'placeholder',
    '4G Mobile Proxy Manager Pro',
  )
  await page.getByLabel('Name (简体中文)').fill('移动代理管家专业版')
  await page.getByLabel('Description (简体中文)').fill('在一个面板中管理所有移动代理。')
  await page.getByLabel('Name (Русский)').fill('')
  await page.getByRole('button', { name: 'Update Product' }).click()
  await expect(page.getByText('Product updated successfully')).toBeVisible()

  await page.goto('/admin/content')
  await page.getByLabel('Hero title (简体中文)').fill('为团队准备的代理工具')
  // The built-in Russian hero title, emptied: Russian buyers read the English one.
  await page.getByLabel('Hero title (Русский)').fill('')
  await page.getByRole('button', { name: 'Save Content' }).click()
  await expect(page.getByText('Content updated successfully')).toBeVisible()
  await admin.close()

  const zh = await context(browser, 'zh-CN')
  const shop = await zh.newPage()
  await shop.goto('/')
  await expect(shop.getByRole('heading', { level: 1 })).toHaveText('为团队准备的代理工具')
  await shop.getByRole('searchbox', { name: '搜索产品' }).fill('管家')
  const found = shop.getByRole('article')
  await expect(found).toHaveCount(1)
  await expect(found.getByRole('heading', { name: '移动代理管家专业版' })).toBeVisible()
  await expect(found).toContainText('在一个面板中管理所有移动代理。')
  // The server renders the same Chinese name on the product's own page.
  await shop.goto('/product/1')
  await expect(shop.getByRole('heading', { level: 1 })).toHaveText('移动代理管家专业版')
  await zh.close()

  const ru = await context(browser, 'en-US', 'ru')
  const russian = await ru.newPage()
  await russian.goto('/')
  await expect(russian.getByRole('heading', { level: 1 })).toHaveText(
    'Mobile proxy software, delivered instantly',
  )
  await expect(russian.getByRole('heading', { name: '4G Mobile Proxy Manager Pro' })).toBeVisible()
  await russian.getByRole('searchbox', { name: 'Поиск товаров' }).fill('管家')
  await expect(russian.getByRole('article')).toHaveCount(0)
  await ru.close()
})
