import { updateSiteContentInputSchema } from '../../shared/admin'
import { emptyPayloadSchema } from '../../shared/rpc'
import { mergeSiteContent } from '../../shared/site-content'
import { changedKeys, onSuccess } from '../audit/audit-log'
import { defineRpc } from '../rpc'
import { readStoredContent } from './content.repo'
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

/** The admin's shop texts, logo and colours. */
export function contentAdminRpcs(content: ContentService) {
  return [
    defineRpc({
      name: 'secure_update_site_content',
      input: updateSiteContentInputSchema,
      admin: true,
      audit: {
        before: async (db) => mergeSiteContent(await readStoredContent(db)),
        entries: onSuccess(({ input, actor, before }) => ({
          action: 'content_update',
          actor,
          details: { fields: changedKeys(before ?? {}, input.p_content ?? {}) },
        })),
      },
      handler: async (input) => {
        await content.save(input.p_content)
        return { success: true }
      },
    }),
  ]
}
