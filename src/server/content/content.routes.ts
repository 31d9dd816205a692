import { emptyPayloadSchema } from '../../shared/rpc'
import { defineRpc } from '../rpc'
import type { ContentService } from './content.service'

export function contentRpcs(content: ContentService) {
  return [
    defineRpc({
      name: 'secure_fetch_site_content',
      input: emptyPayloadSchema,
      handler: async () => ({ success: true, content: await content.get() }),
    }),
  ]
}
