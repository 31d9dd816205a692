import * as z from 'zod'
import { rowIdSchema } from './bounds'
import { locales } from './locale'
import type { ProductTranslations } from './localize'

const productTextSchema = z
  .object({
    name: z.string().max(200).optional(),
    description: z.string().max(5000).optional(),
    features: z.array(z.string().max(300)).max(50).optional(),
  })
  .strict()

/** The operator's product texts in Chinese and Russian; an empty one falls back to English. */
export const productTranslationsSchema = z
  .object(Object.fromEntries(locales.filter((l) => l !== 'en').map((l) => [l, productTextSchema.optional()])))
  .strict() as unknown as z.ZodType<ProductTranslations>

export const productSchema = z.object({
  id: rowIdSchema,
  name: z.string(),
  description: z.string(),
  /** Dollars. */
  price: z.number().nonnegative(),
  image: z.string(),
  features: z.array(z.string()),
  video_id: z.string().nullable(),
  is_free: z.boolean(),
  download_url: z.string().nullable(),
  has_details: z.literal(true),
  featured: z.boolean(),
  created_at: z.string(),
  /** Stock-only product with every key sold or reserved: shown, but cannot be ordered. */
  sold_out: z.boolean().optional(),
  translations: productTranslationsSchema.optional(),
})
export type Product = z.infer<typeof productSchema>

export { isFreeProduct } from './product-rules'

export const fetchProductsAnswerSchema = z.object({
  success: z.boolean(),
  products: z.array(productSchema),
  error: z.string().optional(),
})
export type FetchProductsAnswer = z.infer<typeof fetchProductsAnswerSchema>
