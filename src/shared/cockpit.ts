import * as z from 'zod'
import { dateTimeSchema, rowIdSchema } from './bounds'
import type { ChainFamilyId } from './chains'
import { MAX_ACTIVATION_LIMIT, MAX_VALIDITY_DAYS } from './licences'
import type { orderStatusValues } from './order-statuses'
import { adminKeyField } from './rpc'

// Contracts of the operator's cockpit: the sales view, the audit log, stock settings and the
// CSV exports. Money is sent as decimal strings (USDT 6 decimals, TRX 6 decimals, USD 2 decimals).

export const auditActions = [
  'login',
  'login_failed',
  'login_locked',
  'logout',
  'order_status',
  'order_delete',
  'mail_resend',
  'payment_assign',
  'order_review',
  'product_create',
  'product_update',
  'product_delete',
  'product_stock_settings',
  'key_stock_upload',
  'wallet_add',
  'wallet_remove',
  'content_update',
  'credentials_change',
  'credentials_change_failed',
  'export',
  'webhook_add',
  'webhook_update',
  'webhook_delete',
  'webhook_resend',
  'settings_update',
  'two_factor_enable',
  'two_factor_disable',
  'discount_create',
  'discount_update',
  'discount_disable',
  'discount_enable',
  'refund_create',
  'refund_address',
  'refund_link',
  'refund_cancel',
  'refund_verify',
  'licence_disable',
  'licence_enable',
  'licence_reset',
  'licence_terms',
  'licence_signing_rotate',
  'api_key_create',
  'api_key_revoke',
] as const
export type AuditAction = (typeof auditActions)[number]

export const AUDIT_PAGE_SIZE = 50

export const fetchAuditLogInputSchema = z
  .object({
    ...adminKeyField,
    p_action: z.enum(auditActions).optional(),
    p_from: dateTimeSchema.optional(),
    p_to: dateTimeSchema.optional(),
    p_page: z.number().int().min(1).max(100_000).optional(),
  })
  .strict()

export interface AuditEntry {
  id: number
  at: string
  action: AuditAction | string
  actor: string
  ip: string
  user_agent: string
  target: string | null
  details: Record<string, unknown>
}

export interface FetchAuditLogAnswer {
  success: true
  entries: AuditEntry[]
  total_count: number
  page: number
  page_size: number
}

export const deliveryModeOptions = ['stock_only', 'stock_then_generated', 'none'] as const
export type DeliveryModeOption = (typeof deliveryModeOptions)[number]
export const updateStockSettingsInputSchema = z
  .object({
    ...adminKeyField,
    p_product_id: rowIdSchema,
    p_delivery_mode: z.enum(deliveryModeOptions),
    p_low_stock_threshold: z.number().int().min(0).max(1_000_000).nullable(),
    /** Machines one key may be activated on (the licence API); null = unlimited; absent = unchanged. */
    p_licence_activation_limit: z.number().int().min(1).max(MAX_ACTIVATION_LIMIT).nullable().optional(),
    /** Days after purchase a key stays valid; null = for ever; absent = unchanged. */
    p_licence_validity_days: z.number().int().min(1).max(MAX_VALIDITY_DAYS).nullable().optional(),
  })
  .strict()

export interface SalesDay {
  /** UTC day, YYYY-MM-DD. */
  day: string
  paid_orders: number
  revenue_usdt: string
  revenue_trx: string
  /** The TRX received at each order's locked rate, in USD. */
  revenue_trx_usd: string
  /** USDT + TRX's USD value. */
  revenue_usd: string
  /** Refunds sent that day, in USD (TRX at the order's locked rate). */
  refunds_usd: string
  /** revenue_usd less refunds_usd. */
  net_usd: string
}

export interface SalesTotals {
  paid_orders: number
  revenue_usdt: string
  revenue_trx: string
  revenue_trx_usd: string
  revenue_usd: string
  refunds_usd: string
  net_usd: string
}

export interface SalesStock {
  product_id: number
  name: string
  delivery_mode: DeliveryModeOption
  keys_left: number
  keys_reserved: number
  keys_sold: number
  /** The product's own threshold; null: the shop-wide one applies. */
  low_stock_threshold: number | null
  /**
   * The threshold that applies: the product's own, else the shop-wide one for a stock-only
   * product; null when none does (no keys, or keys generated once the stock is gone).
   */
  low_below: number | null
  /** Fewer keys left than low_below (keys/low-stock.ts). */
  low: boolean
  licence_activation_limit: number | null
  licence_validity_days: number | null
}

/** One family's part of the address pool: an order leases an address of its chain's family. */
export interface SalesPool {
  family: ChainFamilyId
  addresses: { total: number; free: number; leased: number; cooling_down: number }
  /** Orders of the family's chains per hour placed over the last 7 days. */
  leases_per_hour: number
  /** Hours until no address of the family is free at that rate; null when nothing was ordered. */
  pool_dry_in_hours: number | null
  pool_warning: boolean
}

export interface SalesHealth {
  /** Each family that has addresses or an enabled chain; TRON first (a TRON-only shop: TRON alone). */
  pools: SalesPool[]
  unmatched_transfers: number
  mails_failing: number
  /** Seconds the chain follower is behind the chain; null when unknown. */
  follower_lag_seconds: number | null
}

export interface SalesAnswer {
  success: true
  generated_at: string
  days: SalesDay[]
  totals: { today: SalesTotals; last_7_days: SalesTotals; last_30_days: SalesTotals }
  orders_by_status: Record<(typeof orderStatusValues)[number], number>
  /** Orders created in the last 30 days, and how many of them were paid. */
  conversion: { created: number; paid: number; rate: number | null }
  health: SalesHealth
  /** The shop-wide low-stock threshold (a stock-only product without its own is held to it). */
  low_stock_threshold: number
  stock: SalesStock[]
}

/** Neutralises a CSV cell that a spreadsheet would run as a formula, then quotes it if needed. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return ''
  let text = String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export const csvRow = (cells: readonly (string | number | boolean | null | undefined)[]) =>
  `${cells.map(csvCell).join(',')}\r\n`
