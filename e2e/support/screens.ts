import { mkdirSync } from 'node:fs'
import type { Page } from '@playwright/test'

export const widths = { mobile: 375, desktop: 1440 } as const

/** Full-page screenshots at 375 px and 1440 px into the git-ignored screenshots/ folder. */
export async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync('screenshots', { recursive: true })
  const original = page.viewportSize()
  for (const [label, width] of Object.entries(widths)) {
    await page.setViewportSize({ width, height: label === 'mobile' ? 812 : 900 })
    // Layout settles after the resize: fonts loaded, then two frames painted at the new width.
    await page.evaluate(async () => {
      await document.fonts.ready
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
    })
    await page.screenshot({ path: `screenshots/${name}-${width}.png`, fullPage: true })
  }
  if (original) await page.setViewportSize(original)
}
