import { E2E_PORT } from '../playwright.config'
import { expect, test } from './support/test'

// A long e-mail address on a phone: a browser may wrap after any hyphen ("very-" / "long-name…"),
// which reads as a hyphenated word. The payment page wraps it only before its "@".
test.use({ viewport: { width: 375, height: 812 } })

const EMAIL = 'very-long-name-for-testing@example-company.com'

test('on the payment page at 375 px in Russian, a long e-mail address wraps only before its "@"', async ({
  page,
  context,
}) => {
  await context.addCookies([{ name: 'lang', value: 'ru', url: `http://127.0.0.1:${E2E_PORT}` }])
  await page.goto('/')
  await page.getByRole('button', { name: 'В корзину' }).first().click()
  await page.goto('/checkout')
  await page.getByLabel('Адрес e-mail').fill(EMAIL)
  await page.getByRole('button', { name: 'Перейти к оплате' }).click()
  await expect(page).toHaveURL(/\/payment$/)
  await expect(page.getByText(`придут на ${EMAIL}`)).toBeVisible()

  // Where each showing of the address goes on to a new line: the characters on either side.
  const breaks = await page.evaluate(async (email) => {
    await document.fonts.ready
    const nodes: Text[] = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    while (walker.nextNode()) nodes.push(walker.currentNode as Text)
    const chars = nodes.flatMap((node) => [...(node.data as string)].map((_, offset) => ({ node, offset })))
    const text = nodes.map((n) => n.data).join('')
    const top = (i: number) => {
      const range = document.createRange()
      const at = chars[i] as { node: Text; offset: number }
      range.setStart(at.node, at.offset)
      range.setEnd(at.node, at.offset + 1)
      return range.getBoundingClientRect().top
    }
    const found: { shown: number; breaks: string[] } = { shown: 0, breaks: [] }
    for (let start = text.indexOf(email); start !== -1; start = text.indexOf(email, start + 1)) {
      found.shown += 1
      for (let i = start + 1; i < start + email.length; i++) {
        if (top(i) > top(i - 1) + 4) found.breaks.push(`${text[i - 1]}|${text[i]}`)
      }
    }
    return found
  }, EMAIL)
  // In the order line under the title and in the tips; too long for one line at this width.
  expect(breaks.shown).toBe(2)
  expect([...new Set(breaks.breaks)]).toEqual(['g|@'])
})
