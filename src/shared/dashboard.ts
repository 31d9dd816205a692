import * as z from 'zod'
import { rowIdSchema } from './bounds'
import { firstChain } from './chains'
import { chainIdSchema, tokenSymbolSchema } from './network-schemas'
import { orderStatusValues } from './order-statuses'
import { dashboardRefundSchema } from './refunds'

// The buyer's dashboard at /dashboard/{access_token}: what they bought, their keys, their receipt.

export const ACCESS_TOKEN = /^[A-Za-z0-9_-]{32}$/

export const dashboardMessages = {
  notFound: 'This dashboard link was not found',
  tooMany: 'Too many attempts. Please wait a few minutes and try again.',
  seatNotFound: 'This activation was not found: it may already be deactivated',
} as const

export const fetchDashboardInputSchema = z.object({ p_access_token: z.string().max(200) }).strict()

/** The buyer frees a seat (an activation of one of the order's keys) from the dashboard. */
export const deactivateSeatInputSchema = z
  .object({
    p_access_token: z.string().max(200),
    p_instance_id: z.uuid(),
  })
  .strict()

export const licenceStatuses = ['inactive', 'active', 'expired', 'disabled'] as const

/** One key's licence: its status in the licence API, its terms, and the machines it is activated on. */
export const dashboardLicenceSchema = z.object({
  key: z.string(),
  status: z.enum(licenceStatuses),
  /** null: unlimited. */
  activation_limit: z.number().nullable(),
  activation_usage: z.number(),
  expires_at: z.string().nullable(),
  instances: z.array(z.object({ id: z.string(), name: z.string(), created_at: z.string() })),
})
export type DashboardLicence = z.infer<typeof dashboardLicenceSchema>

export const dashboardItemSchema = z.object({
  product_id: rowIdSchema,
  name: z.string(),
  image: z.string().nullable(),
  quantity: z.number(),
  /** Dollars per unit at the time of the order. */
  price: z.number(),
  download_url: z.string().nullable(),
  keys: z.array(z.string()),
  /** The licence of each key, in the order of keys. */
  licences: z.array(dashboardLicenceSchema),
})

export const dashboardOrderSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  status: z.enum(orderStatusValues),
  email: z.string(),
  /** Dollars due, after the discount. */
  total: z.number(),
  discount_code: z.string().nullable(),
  /** Dollars the discount code took off (0 without one). */
  discount: z.number(),
  amount_received: z.number(),
  /** The network and token the buyer picked (TRON and USDT for every order before the choice). */
  chain: chainIdSchema.default(firstChain),
  token: tokenSymbolSchema.default('USDT'),
  tx_hash: z.string().nullable(),
  /** The chain the paying transaction is on (an EVM order is paid on any enabled EVM chain). */
  tx_chain: chainIdSchema.nullable().default(null),
  tx_token: tokenSymbolSchema.nullable().default(null),
  /** A public explorer page for the transaction. */
  tx_url: z.string().nullable(),
  late: z.boolean(),
  /** Refunds of the order that were not cancelled, oldest first. */
  refunds: z.array(dashboardRefundSchema),
  items: z.array(dashboardItemSchema),
})
export type DashboardOrder = z.infer<typeof dashboardOrderSchema>

export const fetchDashboardAnswerSchema = z.discriminatedUnion('success', [
  z.object({ success: z.literal(true), order: dashboardOrderSchema }),
  z.object({ success: z.literal(false), error: z.string() }),
])

export function explorerTxUrl(hash: string): string {
  return `https://tronscan.org/#/transaction/${hash}`
}
