import { eq } from 'drizzle-orm'
import type { AdminProduct, ProductInput } from '../../shared/admin'
import type { DeliveryModeOption as DeliveryMode } from '../../shared/cockpit'
import type { ProductText, ProductTranslations } from '../../shared/localize'
import { dollarsToCents } from '../../shared/money'
import type { Db } from '../db/client'
import { products } from '../db/schema'
import { countKeyStock } from '../keys/key-stock'
import { listProducts } from './catalog.repo'

// The catalogue's writes: the only code that changes `products` (the admin's product form and its
// stock settings; the seed adds the demo catalogue once). The caller invalidates the catalogue cache.

export async function listAdminProducts(db: Db): Promise<AdminProduct[]> {
  const [all, stock] = await Promise.all([listProducts(db), countKeyStock(db)])
  return all.map((p) => ({ ...p, key_stock: stock.get(p.id) ?? 0 }))
}

/** Only the texts the operator wrote: an empty one falls back to English. */
function keptTranslations(translations: ProductTranslations): ProductTranslations {
  const kept: ProductTranslations = {}
  for (const [locale, text] of Object.entries(translations) as [keyof ProductTranslations, ProductText][]) {
    const name = text?.name?.trim()
    const description = text?.description?.trim()
    const features = text?.features?.map((f) => f.trim()).filter((f) => f !== '')
    const one: ProductText = {
      ...(name ? { name } : {}),
      ...(description ? { description } : {}),
      ...(features?.length ? { features } : {}),
    }
    if (Object.keys(one).length > 0) kept[locale] = one
  }
  return kept
}

function columnsOf(input: ProductInput) {
  return {
    name: input.name,
    description: input.description,
    // productInputSchema has refused any price that is not a whole number of cents.
    priceCents: dollarsToCents(input.price) as number,
    image: input.image,
    features: input.features,
    videoId: input.video_id,
    isFree: input.is_free,
    downloadUrl: input.download_url,
    ...(input.featured === undefined ? {} : { featured: input.featured }),
    ...(input.translations === undefined ? {} : { translations: keptTranslations(input.translations) }),
  }
}

/** Adds a product (no id) or updates one; answers its id, or null when the id is unknown. */
export async function saveProduct(db: Db, input: ProductInput): Promise<number | null> {
  if (input.id === undefined) {
    const [row] = await db.insert(products).values(columnsOf(input)).returning({ id: products.id })
    return row?.id ?? null
  }
  const [row] = await db
    .update(products)
    .set({ ...columnsOf(input), updatedAt: new Date() })
    .where(eq(products.id, input.id))
    .returning({ id: products.id })
  return row?.id ?? null
}

/** Orders keep their own snapshot of each item, so deleting a product changes no order. */
export async function deleteProduct(db: Db, id: number): Promise<boolean> {
  const rows = await db.delete(products).where(eq(products.id, id)).returning({ id: products.id })
  return rows.length > 0
}

export interface StockSettings {
  mode: DeliveryMode
  threshold: number | null
  /** The licence terms copied onto each key sold; undefined leaves them as they are. */
  licenceLimit?: number | null
  licenceDays?: number | null
}

/** A product's delivery mode and low-stock threshold; null when there is no such product. */
export async function stockSettingsOf(db: Db, id: number): Promise<StockSettings | null> {
  const [row] = await db
    .select({
      mode: products.deliveryMode,
      threshold: products.lowStockThreshold,
      licenceLimit: products.licenceActivationLimit,
      licenceDays: products.licenceValidityDays,
    })
    .from(products)
    .where(eq(products.id, id))
  return row ?? null
}

/** Sets a product's delivery mode and low-stock threshold; answers false when there is no such product. */
export async function updateStockSettings(db: Db, id: number, settings: StockSettings): Promise<boolean> {
  const rows = await db
    .update(products)
    .set({
      deliveryMode: settings.mode,
      lowStockThreshold: settings.threshold,
      ...(settings.licenceLimit === undefined ? {} : { licenceActivationLimit: settings.licenceLimit }),
      ...(settings.licenceDays === undefined ? {} : { licenceValidityDays: settings.licenceDays }),
      updatedAt: new Date(),
    })
    .where(eq(products.id, id))
    .returning({ id: products.id })
  return rows.length > 0
}
