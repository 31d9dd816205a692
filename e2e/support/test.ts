// The browser tests' `test`: server-rendered pages are visible before React has hydrated them,
// and a click in between would be lost, so every navigation also waits for the app to be
// interactive (AppShell marks <html data-hydrated> once it has mounted or hydrated).
import { test as base } from '@playwright/test'

export { expect, type Page } from '@playwright/test'

const HYDRATED = 'html[data-hydrated]'

export const test = base.extend({
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page)
    const reload = page.reload.bind(page)
    const hydrated = async () => {
      // A download or a redirect elsewhere has no app to wait for.
      if (new URL(page.url()).origin !== new URL(page.context().pages()[0]?.url() ?? page.url()).origin)
        return
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
    await use(page)
  },
})
