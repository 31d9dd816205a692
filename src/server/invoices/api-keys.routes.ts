import { adminMessages } from '../../shared/admin'
import { createApiKeyInputSchema, revokeApiKeyInputSchema } from '../../shared/api-keys'
import { adminOnlyPayloadSchema } from '../../shared/rpc'
import { checkCurrentPassword, clearPasswordAttempts, sessionOf } from '../admin/admin-auth'
import { onSuccess } from '../audit/audit-log'
import type { Db } from '../db/client'
import { defineRpc } from '../rpc'
import { createApiKey, listApiKeys, revokeApiKey, storeIdOf } from './api-keys.repo'

// The admin's API keys: list (with the store id carts are configured with), create (the key is
// answered once), revoke. Creating and revoking change who may use the API: both ask for the
// admin's password, like every call that changes who can log in, and both are audited.

export function apiKeyRpcs(db: Db) {
  return [
    defineRpc({
      name: 'secure_fetch_api_keys',
      input: adminOnlyPayloadSchema,
      admin: true,
      handler: async () => ({ success: true, store_id: await storeIdOf(db), keys: await listApiKeys(db) }),
    }),
    defineRpc({
      name: 'secure_create_api_key',
      input: createApiKeyInputSchema,
      admin: true,
      audit: {
        // The label and scopes, never the key.
        entries: onSuccess(({ input, result, actor }) => ({
          action: 'api_key_create',
          actor,
          target: String(result.id ?? ''),
          details: { label: input.p_label, scopes: input.p_scopes },
        })),
      },
      handler: async (input, { request }) => {
        const user = await checkCurrentPassword(db, sessionOf(request).userId, input.p_current_password)
        if (!user) return { success: false, error: adminMessages.currentPasswordIncorrect }
        await clearPasswordAttempts(db, user.id)
        const { id, key } = await createApiKey(db, input.p_label, input.p_scopes)
        // The only time the key leaves the server.
        return { success: true, id, key }
      },
    }),
    defineRpc({
      name: 'secure_revoke_api_key',
      input: revokeApiKeyInputSchema,
      admin: true,
      audit: {
        entries: onSuccess(({ input, actor }) => ({
          action: 'api_key_revoke',
          actor,
          target: String(input.p_id),
        })),
      },
      handler: async (input, { request }) => {
        const user = await checkCurrentPassword(db, sessionOf(request).userId, input.p_current_password)
        if (!user) return { success: false, error: adminMessages.currentPasswordIncorrect }
        await clearPasswordAttempts(db, user.id)
        return (await revokeApiKey(db, input.p_id))
          ? { success: true }
          : { success: false, error: 'API key not found or already revoked' }
      },
    }),
  ]
}
