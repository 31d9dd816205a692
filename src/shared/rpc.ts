import * as z from 'zod'

/** Every call's payload is a strict object: unknown fields are refused with a 400. */
export const emptyPayloadSchema = z.object({}).strict()

/** Admin calls may still carry the legacy p_admin_key; it is accepted and ignored (decision 005). */
export const adminKeyField = { p_admin_key: z.string().max(500).optional() }

/** The payload of an admin call that takes nothing else. */
export const adminOnlyPayloadSchema = emptyPayloadSchema.extend(adminKeyField).strict()

export interface RpcFailure {
  success: false
  error: string
}
