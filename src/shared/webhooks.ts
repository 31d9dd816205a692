import * as z from 'zod'
import { rowIdSchema } from './bounds'
import { adminKeyField } from './rpc'

// Contracts of signed webhooks: the events, and the admin's Webhooks tab.

export const webhookEvents = [
  'order.created',
  'order.confirming',
  'order.paid',
  'order.cancelled',
  'order.expired',
  'order.refunded',
  'payment.unmatched',
  'stock.low',
  'license_key.activated',
  'license_key.deactivated',
  'license_key.disabled',
] as const
export type WebhookEvent = (typeof webhookEvents)[number]

export const saveWebhookInputSchema = z
  .object({
    ...adminKeyField,
    /** Absent creates an endpoint (its secret is answered once). */
    p_id: rowIdSchema.optional(),
    p_url: z
      .string()
      .trim()
      .max(2000)
      .regex(/^https?:\/\/\S+$/i, 'must be an http:// or https:// URL'),
    p_events: z.array(z.enum(webhookEvents)).min(1, 'choose at least one event').max(webhookEvents.length),
    p_include_keys: z.boolean(),
    p_enabled: z.boolean(),
  })
  .strict()

export const webhookIdInputSchema = z.object({ ...adminKeyField, p_id: rowIdSchema }).strict()

export const webhookDeliveryIdInputSchema = z
  .object({ ...adminKeyField, p_delivery_id: rowIdSchema })
  .strict()

export interface AdminWebhookEndpoint {
  id: number
  url: string
  events: WebhookEvent[]
  include_keys: boolean
  enabled: boolean
  created_at: string
  /** Deliveries still waiting for a 2xx, and given up on. */
  pending: number
  failed: number
}

export interface AdminWebhookDelivery {
  id: number
  event_id: string
  event_type: WebhookEvent
  status: 'pending' | 'delivered' | 'failed'
  attempts: number
  last_status_code: number | null
  last_response: string | null
  next_attempt_at: string
  delivered_at: string | null
  created_at: string
}
