import { z } from 'zod'
import { rowIdSchema } from './bounds'

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
})
export type Product = z.infer<typeof productSchema>

export { isFreeProduct } from './product-rules'

export const fetchProductsAnswerSchema = z.object({
  success: z.boolean(),
  products: z.array(productSchema),
  error: z.string().optional(),
})
export type FetchProductsAnswer = z.infer<typeof fetchProductsAnswerSchema>
