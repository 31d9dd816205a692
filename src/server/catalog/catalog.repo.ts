import { asc, eq } from 'drizzle-orm'
import { centsToDollars } from '../../shared/money'
import type { Product } from '../../shared/product'
import type { Db } from '../db/client'
import { products } from '../db/schema'

type ProductRow = typeof products.$inferSelect

export function toProduct(row: ProductRow): Product {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: centsToDollars(row.priceCents),
    image: row.image,
    features: row.features,
    video_id: row.videoId,
    is_free: row.isFree,
    download_url: row.downloadUrl,
    has_details: true,
    featured: row.featured,
    created_at: row.createdAt.toISOString(),
    // Only when the operator wrote some: the catalogue stays as small as before otherwise.
    ...(Object.keys(row.translations ?? {}).length > 0 ? { translations: row.translations } : {}),
  }
}

export async function listProducts(db: Db): Promise<Product[]> {
  const rows = await db.select().from(products).orderBy(asc(products.sortOrder), asc(products.id))
  return rows.map(toProduct)
}

/** A product's fields as the admin's product form names them, to say what a save changed. */
export async function productFormFields(db: Db, id: number): Promise<Record<string, unknown> | undefined> {
  const [row] = await db.select().from(products).where(eq(products.id, id))
  if (!row) return undefined
  const { id: _id, has_details: _details, created_at: _created, ...fields } = toProduct(row)
  return fields
}
