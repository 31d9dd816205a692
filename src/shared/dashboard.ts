import { z } from 'zod'
import { rowIdSchema } from './bounds'
import { chainIdSchema, tokenSymbolSchema } from './chains'

// The buyer's dashboard at /dashboard/{access_token}: what they bought, their keys, their receipt.

export const ACCESS_TOKEN = /^[A-Za-z0-9_-]{32}$/

export const dashboardMessages = {
  notFound: 'This dashboard link was not found',
  tooMany: 'Too many attempts. Please wait a few minutes and try again.',
} as const

export const fetchDashboardInputSchema = z.object({ p_access_token: z.string().max(200) }).strict()

export const dashboardItemSchema = z.object({
  product_id: rowIdSchema,
  name: z.string(),
  image: z.string().nullable(),
  quantity: z.number(),
  /** Dollars per unit at the time of the order. */
  price: z.number(),
  download_url: z.string().nullable(),
  keys: z.array(z.string()),
})

export const dashboardOrderSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  status: z.enum(['pending', 'paid', 'completed', 'cancelled']),
  email: z.string(),
  /** Dollars due, after the discount. */
  total: z.number(),
  discount_code: z.string().nullable(),
  /** Dollars the discount code took off (0 without one). */
  discount: z.number(),
  amount_received: z.number(),
  /** The network and token the buyer picked (TRON and USDT for every order before the choice). */
  chain: chainIdSchema.default('tron'),
  token: tokenSymbolSchema.default('USDT'),
  tx_hash: z.string().nullable(),
  /** The chain the paying transaction is on (an EVM order is paid on any enabled EVM chain). */
  tx_chain: chainIdSchema.nullable().default(null),
  tx_token: tokenSymbolSchema.nullable().default(null),
  /** A public explorer page for the transaction. */
  tx_url: z.string().nullable(),
  late: z.boolean(),
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
