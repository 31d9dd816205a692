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
  if (soldOut.size === 0) return products
  // The same marks on the same catalogue give the same array, so the rendered pages made from it
  // stay cached (render/render-page.ts) while nothing changes.
  const marks = [...soldOut].sort((a, b) => a - b).join(',')
  const last = marked.get(products)
  if (last?.marks === marks) return last.products
  const result = products.map((p) => (soldOut.has(p.id) ? { ...p, sold_out: true } : p))
  marked.set(products, { marks, products: result })
  return result
}
const marked = new WeakMap<Product[], { marks: string; products: Product[] }>()

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
