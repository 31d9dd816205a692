import { expect, test } from './support/test'

// The login page's layout is final at first paint: nothing moves when the server's answer on this
// browser replaces "Loading…" with the form. Measured as Lighthouse does on a phone (412 × 823).
test.use({ viewport: { width: 412, height: 823 } })

test('/admin/login does not shift once painted (cumulative layout shift below 0.02)', async ({ page }) => {
  await page.goto('/admin/login')
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible()
  const shift = await page.evaluate(async () => {
    await document.fonts.ready
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
    // Every shift since the navigation began, from the buffer (none at all is an empty buffer).
    const entries = await new Promise<PerformanceEntryList>((resolve) => {
      const observer = new PerformanceObserver((list) => resolve(list.getEntries()))
      observer.observe({ type: 'layout-shift', buffered: true })
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(observer.takeRecords())))
    })
    return entries
      .filter((e) => !(e as unknown as { hadRecentInput: boolean }).hadRecentInput)
      .reduce((sum, e) => sum + (e as unknown as { value: number }).value, 0)
  })
  expect(shift).toBeLessThan(0.02)
})
