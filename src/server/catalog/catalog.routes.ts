import { emptyPayloadSchema } from '../../shared/rpc'
import { defineRpc } from '../rpc'
import type { CatalogService } from './catalog.service'

export function catalogRpcs(catalog: CatalogService) {
  return [
    defineRpc({
      name: 'fetch_products',
      input: emptyPayloadSchema,
      handler: async (_input, { reply }) => {
        reply.type('application/json; charset=utf-8')
        return catalog.answerJson()
      },
    }),
  ]
}
