import type { Product } from '../../shared/product'
import { emptyPayloadSchema } from '../../shared/rpc'
import type { Db } from '../db/client'
import { soldOutProductIds } from '../keys/reservation'
import { defineRpc } from '../rpc'
import type { CatalogService } from './catalog.service'

/** The catalogue as buyers see it: cached products, with sold-out marks read fresh (stock moves with every order). */
export async function productsForSale(catalog: CatalogService, db: Db): Promise<Product[]> {
  const soldOut = await soldOutProductIds(db)
  const products = await catalog.list()
  return soldOut.size === 0
    ? products
    : products.map((p) => (soldOut.has(p.id) ? { ...p, sold_out: true } : p))
}

export function catalogRpcs(catalog: CatalogService, db: Db) {
  return [
    defineRpc({
      name: 'fetch_products',
      input: emptyPayloadSchema,
      handler: async (_input, { reply }) => {
        reply.type('application/json; charset=utf-8')
        // Stock changes with every order, so sold-out marks are looked up fresh, not cached.
        const soldOut = await soldOutProductIds(db)
        if (soldOut.size === 0) return catalog.answerJson()
        return JSON.stringify({ success: true, products: await productsForSale(catalog, db) })
      },
    }),
  ]
}
