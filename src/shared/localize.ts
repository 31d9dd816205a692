// The operator's texts in the language shown: each falls back to the English one when empty.
// No schema library here: the storefront's first load uses it.
import type { Locale } from './locale'

export interface ProductText {
  name?: string
  description?: string
  features?: string[]
}
/** Per language other than English; English is the product's own name, description and features. */
export type ProductTranslations = Partial<Record<Exclude<Locale, 'en'>, ProductText>>

export function localizeProduct<
  P extends { name: string; description: string; features: string[]; translations?: ProductTranslations },
>(product: P, locale: Locale): P {
  const text = locale === 'en' ? undefined : product.translations?.[locale]
  if (!text) return product
  return {
    ...product,
    name: text.name?.trim() || product.name,
    description: text.description?.trim() || product.description,
    features: text.features?.some((f) => f.trim()) ? text.features.filter((f) => f.trim()) : product.features,
  }
}

/** The site's texts in one language other than English; any missing one is the English text. */
export interface ContentText {
  navigation?: { products?: string; support?: string }
  hero?: { title?: string; subtitle?: string }
  meta?: { title?: string }
  support?: {
    title?: string
    subtitle?: string
    response?: string
    sections?: { title?: string; description?: string }[]
  }
}
export type ContentTranslations = Partial<Record<Exclude<Locale, 'en'>, ContentText>>

interface LocalizableContent {
  navigation: { products: string; support: string }
  hero: { title: string; subtitle: string }
  meta: { title: string }
  support: {
    title: string
    subtitle: string
    response: string
    sections: { title: string; description: string }[]
  }
  translations?: ContentTranslations
}

const or = (text: string | undefined, fallback: string) => text?.trim() || fallback

export function localizeContent<C extends LocalizableContent>(content: C, locale: Locale): C {
  const text = locale === 'en' ? undefined : content.translations?.[locale]
  if (!text) return content
  return {
    ...content,
    navigation: {
      ...content.navigation,
      products: or(text.navigation?.products, content.navigation.products),
      support: or(text.navigation?.support, content.navigation.support),
    },
    hero: {
      ...content.hero,
      title: or(text.hero?.title, content.hero.title),
      subtitle: or(text.hero?.subtitle, content.hero.subtitle),
    },
    meta: { ...content.meta, title: or(text.meta?.title, content.meta.title) },
    support: {
      ...content.support,
      title: or(text.support?.title, content.support.title),
      subtitle: or(text.support?.subtitle, content.support.subtitle),
      response: or(text.support?.response, content.support.response),
      sections: content.support.sections.map((section, i) => ({
        ...section,
        title: or(text.support?.sections?.[i]?.title, section.title),
        description: or(text.support?.sections?.[i]?.description, section.description),
      })),
    },
  }
}
