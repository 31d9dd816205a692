import type { Product } from '../../shared/product'
import type { Database } from '../db/client'
import { type CachedValue, cachedValue } from '../lib/cached-value'
import { listProducts } from './catalog.repo'

export interface CatalogService {
  /** Products in catalogue order, from memory. */
  list(): Promise<Product[]>
  /** The fetch_products answer, serialised once per catalogue version. */
  answerJson(): Promise<string>
  invalidate(): void
}

export function createCatalogService(database: Database, ttlMs: number): CatalogService {
  const cache: CachedValue<{ products: Product[]; json: string }> = cachedValue(async () => {
    const products = await listProducts(database.db)
    return { products, json: JSON.stringify({ success: true, products }) }
  }, ttlMs)
  return {
    list: async () => (await cache.get()).products,
    answerJson: async () => (await cache.get()).json,
    invalidate: () => cache.invalidate(),
  }
}
