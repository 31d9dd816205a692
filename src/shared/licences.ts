import * as z from 'zod'
import { dateTimeSchema, rowIdSchema } from './bounds'
import type { DashboardLicence } from './dashboard'
import { adminKeyField } from './rpc'

// The operator's Licences view: search sold keys, see their activations, disable or enable a key,
// reset its activations, change its limit or expiry, rotate the token signing key.

/** The most machines a key may be activated on (the database's bound too). */
export const MAX_ACTIVATION_LIMIT = 100_000
/** The longest validity a product may give its keys, in days (100 years). */
export const MAX_VALIDITY_DAYS = 36_500

export const LICENCE_PAGE_SIZE = 50

export const fetchLicencesInputSchema = z.object({ ...adminKeyField, p_search: z.string().max(200) }).strict()

export const licenceKeyIdInputSchema = z.object({ ...adminKeyField, p_key_id: rowIdSchema }).strict()

export const setLicenceDisabledInputSchema = z
  .object({ ...adminKeyField, p_key_id: rowIdSchema, p_disabled: z.boolean() })
  .strict()

export const setLicenceTermsInputSchema = z
  .object({
    ...adminKeyField,
    p_key_id: rowIdSchema,
    /** null: unlimited. */
    p_activation_limit: z.number().int().min(1).max(MAX_ACTIVATION_LIMIT).nullable(),
    /** null: never expires. */
    p_expires_at: dateTimeSchema.nullable(),
  })
  .strict()

export interface AdminLicence extends DashboardLicence {
  id: number
  product_id: number
  product_name: string
  order_id: string
  email: string | null
  sold_at: string
  /** The operator disabled it (else a disabled key was disabled by its order). */
  disabled_by_operator: boolean
  /** Its order disabled it: 'cancelled', 'refunded'; null when not. */
  order_disabled_reason: string | null
}

export interface FetchLicencesAnswer {
  success: true
  licences: AdminLicence[]
}
