import type { Locator } from '@playwright/test'
import { widths } from './screens'
import { expect, type Page } from './test'

/**
 * A copy field's value is shown whole at 375 px and 1440 px: nothing of it is cut off or scrolled
 * out of its box, and the copy button beside it covers none of it.
 */
export async function expectShownWhole(page: Page, field: Locator): Promise<void> {
  const original = page.viewportSize()
  for (const width of Object.values(widths)) {
    await page.setViewportSize({ width, height: 900 })
    await field.scrollIntoViewIfNeeded()
    const fit = await field.evaluate((el) => {
      const box = el.getBoundingClientRect()
      const button = el.parentElement?.querySelector('button')?.getBoundingClientRect()
      return {
        clipped: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1,
        overlap: button
          ? button.left < box.right - 1 && button.top < box.bottom && button.bottom > box.top
          : false,
        inView: box.left >= 0 && box.right <= window.innerWidth,
      }
    })
    expect(fit, `at ${width} px`).toEqual({ clipped: false, overlap: false, inView: true })
  }
  if (original) await page.setViewportSize(original)
}
