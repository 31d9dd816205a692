import * as z from 'zod'
import { emailSchema } from './checkout'

// "E-mail me my orders": a buyer who lost their dashboard links asks for a one-time link to a page
// listing their address's paid orders.

/** 256 random bits, URL-safe. */
export const ORDER_LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/
export const ORDER_LINK_MINUTES = 30

export const orderLinkMessages = {
  /** The one answer to every request, whether or not the address has orders. */
  sent: `If this address has paid orders, we have e-mailed it a link to them. The link works once, for ${ORDER_LINK_MINUTES} minutes.`,
  tooMany: 'Too many requests. Please wait a while and try again.',
  invalid: 'This link has expired or was already used. Ask for a new one below.',
} as const

export const requestOrderLinksInputSchema = z.object({ p_email: emailSchema }).strict()

export const requestOrderLinksAnswerSchema = z.object({ success: z.literal(true), message: z.string() })

export const openOrderLinksInputSchema = z.object({ p_token: z.string().max(200) }).strict()

export const linkedOrderSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  /** Dollars due after any discount. */
  total: z.number(),
  discount: z.number(),
  items: z.array(z.object({ name: z.string(), quantity: z.number() })),
  /** The order's dashboard path, /dashboard/{token}. */
  dashboard_path: z.string(),
})
export type LinkedOrder = z.infer<typeof linkedOrderSchema>

export const openOrderLinksAnswerSchema = z.discriminatedUnion('success', [
  z.object({ success: z.literal(true), email: z.string(), orders: z.array(linkedOrderSchema) }),
  z.object({ success: z.literal(false), error: z.string() }),
])
