import { emptyPayloadSchema } from '../../shared/rpc'
import type { Db } from '../db/client'
import { soldOutProductIds } from '../keys/reservation'
import { defineRpc } from '../rpc'
import type { CatalogService } from './catalog.service'

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
        const products = (await catalog.list()).map((p) => (soldOut.has(p.id) ? { ...p, sold_out: true } : p))
        return JSON.stringify({ success: true, products })
      },
    }),
  ]
}
