import * as z from 'zod'
import { rowIdSchema } from './bounds'
import { adminKeyField } from './rpc'

// Contracts of the invoice API's keys (src/server/invoices): the scopes a key may hold, named as
// BTCPay Greenfield names its permissions so a cart's plugin asks for what it knows, and the
// admin's calls that make, list and revoke keys.

export const apiKeyScopes = [
  'btcpay.store.cancreateinvoice',
  'btcpay.store.canviewinvoices',
  'btcpay.store.canmodifyinvoices',
  'btcpay.store.webhooks.canmodifywebhooks',
] as const
export type ApiKeyScope = (typeof apiKeyScopes)[number]

/** Making a key or revoking one changes who can use the shop's API: the admin's password is asked. */
const currentPassword = { p_current_password: z.string().min(1, 'is required').max(200) }

export const createApiKeyInputSchema = z
  .object({
    ...adminKeyField,
    ...currentPassword,
    p_label: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
    p_scopes: z.array(z.enum(apiKeyScopes)).min(1, 'choose at least one scope').max(apiKeyScopes.length),
  })
  .strict()

export const revokeApiKeyInputSchema = z
  .object({ ...adminKeyField, ...currentPassword, p_id: rowIdSchema })
  .strict()

export interface ApiKeyView {
  id: number
  label: string
  /** The key's first characters. */
  prefix: string
  scopes: ApiKeyScope[]
  created_at: string
  last_used_at: string | null
  revoked_at: string | null
}
