import { describe, expect, it } from 'vitest'
import { builtInSiteContent, defaultSiteContent, mergeSiteContent, siteContentSchema } from './site-content'

describe('site content', () => {
  it('the defaults are valid content', () => {
    expect(siteContentSchema.parse(defaultSiteContent)).toEqual(defaultSiteContent)
  })

  it('stored sections override the defaults; missing or invalid sections fall back', () => {
    const merged = mergeSiteContent({
      hero: { title: 'Hello', subtitle: 'World', backgroundImage: '/images/x.svg' },
      theme: { primary: 'red' },
      logo: 'nonsense',
    })
    expect(merged.hero.title).toBe('Hello')
    expect(merged.theme).toEqual(defaultSiteContent.theme)
    expect(merged.logo).toEqual(defaultSiteContent.logo)
    expect(mergeSiteContent(null)).toEqual(builtInSiteContent)
  })

  it('refuses script URLs for images', () => {
    const hero = { title: 't', subtitle: 's', backgroundImage: 'javascript:alert(1)' }
    expect(siteContentSchema.shape.hero.safeParse(hero).success).toBe(false)
    expect(
      siteContentSchema.shape.hero.safeParse({ ...hero, backgroundImage: '//evil.example/x.png' }).success,
    ).toBe(false)
  })
})
