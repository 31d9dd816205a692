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

/** The invoice API's (BTCPay Greenfield's) webhook events, in the order an invoice goes through them. */
export const greenfieldEvents = [
  'InvoiceCreated',
  'InvoiceReceivedPayment',
  'InvoiceProcessing',
  'InvoiceSettled',
  'InvoiceExpired',
  'InvoiceInvalid',
] as const
export type GreenfieldEvent = (typeof greenfieldEvents)[number]

/** The admin registering a Greenfield webhook (managed through the invoice API otherwise). */
export const addGreenfieldWebhookInputSchema = z
  .object({
    ...adminKeyField,
    p_url: z
      .string()
      .trim()
      .max(2000)
      .regex(/^https?:\/\/\S+$/i, 'must be an http:// or https:// URL'),
    p_events: z
      .array(z.enum(greenfieldEvents))
      .min(1, 'choose at least one event')
      .max(greenfieldEvents.length),
  })
  .strict()

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

export interface AdminWebhookEndpoint<E extends string = WebhookEvent> {
  id: number
  url: string
  events: E[]
  include_keys: boolean
  enabled: boolean
  created_at: string
  /** Deliveries still waiting for a 2xx, and given up on. */
  pending: number
  failed: number
  /** The newest delivery's state and HTTP code (null: none yet, or no answer). */
  last_status: 'pending' | 'delivered' | 'failed' | null
  last_status_code: number | null
}

export interface AdminWebhookDelivery {
  id: number
  event_id: string
  /** The shop's own event, a Greenfield event (InvoiceSettled…) or epusdt.paid. */
  event_type: string
  /** The invoice a Greenfield or epusdt delivery is about. */
  invoice_id: string | null
  status: 'pending' | 'delivered' | 'failed'
  attempts: number
  last_status_code: number | null
  last_response: string | null
  next_attempt_at: string
  delivered_at: string | null
  created_at: string
}
