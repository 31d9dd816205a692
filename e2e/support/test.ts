// The browser tests' `test`: server-rendered pages are visible before React has hydrated them,
// and a click in between would be lost, so every navigation also waits for the app to be
// interactive (AppShell marks <html data-hydrated> once it has mounted or hydrated). Pages of a
// context a test opens itself get the same through `interactiveContext`.
import { type Browser, type BrowserContextOptions, test as base, type Page } from '@playwright/test'

export { expect, type Page } from '@playwright/test'

const HYDRATED = 'html[data-hydrated]'

/** Makes `page.goto` and `page.reload` of an HTML page return once the app is interactive. */
function waitForHydrationOnNavigation(page: Page): Page {
  const goto = page.goto.bind(page)
  const reload = page.reload.bind(page)
  const hydrated = async () => {
    // A download or a redirect elsewhere has no app to wait for.
    if (new URL(page.url()).origin !== new URL(page.context().pages()[0]?.url() ?? page.url()).origin) return
    await page.waitForSelector(HYDRATED, { state: 'attached' })
  }
  page.goto = async (url, options) => {
    const response = await goto(url, options)
    if (response?.headers()['content-type']?.startsWith('text/html')) await hydrated()
    return response
  }
  page.reload = async (options) => {
    const response = await reload(options)
    if (response?.headers()['content-type']?.startsWith('text/html')) await hydrated()
    return response
  }
  return page
}

/** A new browser context whose pages wait for the app as the `page` fixture does. */
export async function interactiveContext(browser: Browser, options: BrowserContextOptions = {}) {
  const context = await browser.newContext(options)
  const newPage = context.newPage.bind(context)
  context.newPage = async () => waitForHydrationOnNavigation(await newPage())
  return context
}

export const test = base.extend({
  page: async ({ page }, use) => {
    await use(waitForHydrationOnNavigation(page))
  },
})
