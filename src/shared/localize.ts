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
