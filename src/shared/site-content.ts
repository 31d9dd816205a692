import * as z from 'zod'

import { locales } from './locale'
import type { ContentTranslations } from './localize'
import { defaultSiteContent, supportIcons } from './site-content-defaults'
import { defaultContentTranslations } from './site-content-translations'

export { defaultSiteContent, type SupportIcon, supportIcons } from './site-content-defaults'

const text = (max: number) => z.string().max(max)
const colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #26a17b')
// Image URLs: the shop's own paths or http(s) URLs; never javascript: or data: URLs.
const imageUrl = z
  .string()
  .max(2000)
  .regex(/^(\/(?!\/)|https?:\/\/)\S*$/, 'must be a path on this site or an http(s) URL')

const contentTextSchema = z
  .object({
    navigation: z
      .object({ products: text(40), support: text(40) })
      .partial()
      .strict(),
    hero: z
      .object({ title: text(200), subtitle: text(500) })
      .partial()
      .strict(),
    meta: z
      .object({ title: text(120) })
      .partial()
      .strict(),
    support: z
      .object({
        title: text(200),
        subtitle: text(500),
        response: text(100),
        sections: z
          .array(
            z
              .object({ title: text(120), description: text(1000) })
              .partial()
              .strict(),
          )
          .max(8),
      })
      .partial()
      .strict(),
  })
  .partial()
  .strict()

/** The site's texts in Chinese and Russian; an empty one falls back to English. */
export const contentTranslationsSchema = z
  .object(Object.fromEntries(locales.filter((l) => l !== 'en').map((l) => [l, contentTextSchema.optional()])))
  .strict() as unknown as z.ZodType<ContentTranslations>

export const siteContentSchema = z
  .object({
    logo: z.object({ mainText: text(60), subText: text(60) }).strict(),
    navigation: z.object({ products: text(40), support: text(40) }).strict(),
    hero: z.object({ title: text(200), subtitle: text(500), backgroundImage: imageUrl }).strict(),
    meta: z.object({ title: text(120) }).strict(),
    theme: z
      .object({ primary: colour, primaryDark: colour, background: colour, card: colour, accent: colour })
      .strict(),
    support: z
      .object({
        title: text(200),
        subtitle: text(500),
        email: z.union([z.literal(''), z.email().max(254)], { error: 'must be an e-mail address, or empty' }),
        response: text(100),
        sections: z
          .array(z.object({ title: text(120), description: text(1000), icon: z.enum(supportIcons) }).strict())
          .max(8),
      })
      .strict(),
    translations: contentTranslationsSchema.optional(),
  })
  // Unknown sections are refused like unknown fields anywhere else, not silently dropped.
  .strict()
export type SiteContent = z.infer<typeof siteContentSchema>

/** The defaults with their built-in Chinese and Russian texts: what a new shop shows. */
export const builtInSiteContent: SiteContent = {
  ...defaultSiteContent,
  translations: defaultContentTranslations,
}

/** Stored content overrides the defaults section by section; a section that fails validation falls back. */
export function mergeSiteContent(stored: unknown): SiteContent {
  if (!stored || typeof stored !== 'object') return builtInSiteContent
  const merged: Record<string, unknown> = { ...defaultSiteContent }
  for (const key of Object.keys(defaultSiteContent) as (keyof SiteContent)[]) {
    const candidate = (stored as Record<string, unknown>)[key]
    const section = siteContentSchema.shape[key].safeParse(candidate)
    if (section.success) merged[key] = section.data
  }
  const translations = contentTranslationsSchema.safeParse((stored as Record<string, unknown>).translations)
  merged.translations =
    translations.success && translations.data ? translations.data : defaultContentTranslations
  return merged as SiteContent
}

export const fetchSiteContentAnswerSchema = z.object({
  success: z.boolean(),
  content: siteContentSchema,
  error: z.string().optional(),
})
export type FetchSiteContentAnswer = z.infer<typeof fetchSiteContentAnswerSchema>
