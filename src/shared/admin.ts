import * as z from 'zod'
import { rowIdSchema } from './bounds'
import type { ChainId, TokenSymbol } from './chains'
import type { ProductTranslations } from './localize'
import { orderStatusValues } from './order-statuses'
import { productTranslationsSchema } from './product'
import { adminKeyField } from './rpc'
import { siteContentSchema } from './site-content'
import type { Shortfall } from './token-amount'
import type { UnmatchedReason } from './unmatched-reasons'
import { parseWalletAddressLines } from './wallet-addresses'

// Contracts of the admin panel: payloads of the admin calls (the storefront's original call names,
// plus the calls the server-side admin adds), and the messages the panel shows.

export const adminMessages = {
  unauthorized: 'Unauthorized',
  sessionExpired: 'Session expired. Please login again.',
  accessDenied: 'Access denied',
  accessRestricted: 'Access Restricted - This admin panel is only accessible from authorized devices.',
  invalidCredentials: 'Invalid credentials',
  loginFailed: 'Login failed. Please try again.',
  tooManyAttempts: 'Too many failed login attempts. Please try again in 15 minutes.',
  foreignOrigin: 'Cross-origin admin requests are not allowed',
  passwordsDoNotMatch: 'New passwords do not match',
  currentPasswordIncorrect: 'Current password is incorrect',
  credentialsUpdated: 'Credentials updated successfully',
  credentialsFailed: 'Failed to update credentials',
  downloadUrlRequired: 'Download URL is required for free products',
  statusUpdated: 'Order status updated successfully',
  statusFailed: 'Failed to update order status',
  noWalletAddress: 'Please enter at least one wallet address',
  addressInUse: 'This address is leased to a pending order and cannot be removed',
  reopenAddressInUse:
    "This order's wallet address has gone to another order since, so the order cannot be set back to pending",
  reopenAddressRemoved:
    "This order's wallet address was removed from the pool, so the order cannot be set back to pending",
  paymentAlreadyCredited: 'This transfer already pays an order; it cannot be assigned to another',
  notHeld: 'This order holds no payment waiting for review',
  refundedStatus: "A refunded order's status follows its refunds; it cannot be set by hand",
} as const

export const adminOrderStatuses = orderStatusValues
export type AdminOrderStatus = (typeof adminOrderStatuses)[number]
/** What the admin may set by hand: refunded and partially refunded follow proven refunds only. */
export const settableOrderStatuses = ['pending', 'paid', 'completed', 'cancelled'] as const
export type SettableOrderStatus = (typeof settableOrderStatuses)[number]

const orderId = z.uuid('must be an order id')

export const loginInputSchema = z
  .object({
    p_username: z.string().trim().min(1, 'is required').max(100),
    p_password: z.string().min(1, 'is required').max(200),
    /** The second factor (a TOTP code or a recovery code) once two-factor login is on. */
    p_code: z.string().trim().min(1, 'is required').max(40).optional(),
  })
  .strict()

export const ORDERS_PAGE_SIZE = 25

export const fetchOrdersInputSchema = z
  .object({
    ...adminKeyField,
    p_search: z.string().trim().max(100).optional(),
    p_status: z.enum(['all', ...adminOrderStatuses]).optional(),
    p_page: z.number().int().min(1).max(100_000).optional(),
    p_page_size: z.number().int().min(1).max(200).optional(),
    // Next and Previous name the order at the edge of the page on screen: the page after the last
    // one or before the first one is read from there (keyset), however deep it is. p_page is then
    // only echoed; without them (or when that order is gone) p_page is counted from the start.
    p_after_id: orderId.optional(),
    p_before_id: orderId.optional(),
  })
  .strict()
  .refine((v) => !(v.p_after_id && v.p_before_id), {
    message: 'Give p_after_id or p_before_id, not both',
    path: ['p_before_id'],
  })

export const orderIdInputSchema = z.object({ ...adminKeyField, p_order_id: orderId }).strict()

export const updateOrderStatusInputSchema = z
  .object({ ...adminKeyField, p_order_id: orderId, p_status: z.enum(settableOrderStatuses) })
  .strict()

/** The operator's decision on an order held for review: pay it with the held transfers, or not. */
export const reviewHeldOrderInputSchema = z
  .object({ ...adminKeyField, p_order_id: orderId, p_decision: z.enum(['release', 'refuse']) })
  .strict()

export const assignPaymentInputSchema = z
  .object({
    ...adminKeyField,
    p_payment_id: rowIdSchema,
    p_order_id: orderId,
  })
  .strict()

// Product URLs: a path on this site or an http(s) URL; never javascript: or data: URLs.
const SAFE_URL = /^(\/(?!\/)|https?:\/\/)\S+$/
const safeUrl = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .max(2000)
    .regex(SAFE_URL, `${label} must be a path on this site or an http(s) URL`)

/** The product form's rules, applied by the server and the form alike. */
export const productInputSchema = z
  .object({
    id: rowIdSchema.optional(),
    name: z.string().trim().min(1, 'Name is required').max(200),
    description: z.string().trim().min(1, 'Description is required').max(5000),
    price: z.number().finite().min(0, 'Price must be at least 0').max(1_000_000),
    image: safeUrl('Image URL'),
    features: z
      .array(z.string().trim().max(300))
      .transform((lines) => lines.filter((line) => line !== ''))
      .pipe(z.array(z.string()).min(1, 'At least one feature is required').max(50)),
    video_id: z
      .string()
      .nullish()
      .transform((v) => (v?.trim() ? v.trim() : null))
      .pipe(
        z
          .string()
          .regex(/^[\w-]{1,64}$/, 'Video id must be letters, digits, - or _')
          .nullable(),
      ),
    is_free: z.boolean(),
    download_url: z
      .string()
      .nullish()
      .transform((v) => (v?.trim() ? v.trim() : null))
      .pipe(safeUrl('Download URL').nullable()),
    // Older clients always send has_details: true; accepted and ignored.
    has_details: z.boolean().optional(),
    featured: z.boolean().optional(),
    /** Name, description and features in Chinese and Russian; empty ones fall back to English. */
    translations: productTranslationsSchema.optional(),
  })
  .strict()
  .transform((p) => (p.is_free ? { ...p, price: 0 } : p))
  .refine((p) => !(p.is_free || p.price === 0) || p.download_url !== null, {
    message: adminMessages.downloadUrlRequired,
    path: ['download_url'],
  })
  .refine((p) => Math.abs(Math.round(p.price * 100) - p.price * 100) < 1e-6, {
    message: 'Price must have at most 2 decimals',
    path: ['price'],
  })
export type ProductInput = z.infer<typeof productInputSchema>

export const manageProductInputSchema = z
  .object({
    ...adminKeyField,
    p_product: z.unknown(),
    /** Licence keys to add to the stock, one per line. */
    p_keys: z.string().max(1_000_000).optional(),
  })
  .strict()

export const deleteProductInputSchema = z.object({ ...adminKeyField, p_product_id: rowIdSchema }).strict()

export const addWalletAddressesInputSchema = z
  .object({
    ...adminKeyField,
    p_addresses: z.union([z.string().max(200_000), z.array(z.string().max(200)).max(5000)]),
  })
  .strict()

/** The Wallets tab's text box: the same line rules the server applies to secure_add_wallet_addresses. */
export const walletLinesFormSchema = z.object({
  addresses: z.string().transform((text, ctx) => {
    const parsed = parseWalletAddressLines(text)
    if (parsed.ok) return parsed.addresses
    ctx.addIssue({ code: 'custom', message: parsed.error })
    return z.NEVER
  }),
})

export const removeWalletAddressInputSchema = z
  .object({ ...adminKeyField, p_address: z.string().trim().min(1).max(64) })
  .strict()

export const removeWalletAddressesInputSchema = z
  .object({ ...adminKeyField, p_addresses: z.array(z.string().trim().min(1).max(64)).min(1).max(5000) })
  .strict()

export const updateSiteContentInputSchema = z
  .object({ ...adminKeyField, p_content: siteContentSchema })
  .strict()

export const MIN_PASSWORD_LENGTH = 8

export const updateCredentialsInputSchema = z
  .object({
    ...adminKeyField,
    p_current_password: z.string().min(1, 'is required').max(200),
    p_new_username: z.string().trim().min(1, 'is required').max(100),
    p_new_password: z
      .string()
      .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(200),
    /** The confirmation field; when sent, it must match. */
    p_confirm_password: z.string().max(200).optional(),
  })
  .strict()

/**
 * The Security tab's form: the call's rules plus the confirmation. The server checks the same match
 * and answers a mismatch as a refusal (passwordsDoNotMatch) rather than a malformed request.
 */
export const credentialsFormSchema = updateCredentialsInputSchema.refine(
  (c) => c.p_confirm_password === undefined || c.p_confirm_password === c.p_new_password,
  { message: adminMessages.passwordsDoNotMatch, path: ['p_confirm_password'] },
)

/** One row of the orders table: the order shape every client knows, plus what the panel adds. */
export interface AdminOrder {
  id: string
  created_at: string
  email: string
  items: unknown
  total: number
  wallet_address: string
  status: AdminOrderStatus
  /** Dollars received: USDT, plus TRX at the order's locked rate. */
  amount_received: number
  /** TRX to send (at the locked rate), or null when the order is USDT-only. */
  trx_amount: string | null
  /** TRX received. */
  trx_received: string
  paid_at: string | null
  tx_hash: string | null
  /** The network and token the buyer picked (TRON and USDT before the choice existed). */
  chain?: ChainId
  token?: TokenSymbol
  late: boolean
  underpaid: boolean
  /** A transfer to it waits for the operator: its sender paid another order at this address before. */
  held: boolean
  /** The discount code the order was placed with, and what it took off (dollars; total is after it). */
  discount_code: string | null
  discount: number
  /** Pending and a transfer to it was seen in the head, not final yet: dollars seen (decision 024); else null. */
  confirming?: number | null
}

/** secure_fetch_order_sightings: what was seen of an order's transfers before they were final. */
export interface AdminOrderSightings {
  success: true
  sightings: {
    tx_id: string
    token: TokenSymbol
    /** In the token. */
    amount: number
    block_number: number
    status: 'seen' | 'confirmed' | 'dropped' | 'failed'
    /** The chain's result of a failed transfer (OUT_OF_ENERGY, REVERT, …). */
    failure: string | null
  }[]
}

export interface FetchOrdersAnswer {
  success: true
  orders: AdminOrder[]
  total_count: number
  page: number
  page_size: number
}

export interface AdminOrderDetail {
  success: true
  order: AdminOrder & {
    window_ends_at: string
    grace_until: string
    cancelled_at: string | null
    /** Pending and paid in part: received and missing in the order's token (missing rounded up); else null. */
    shortfall: Shortfall | null
    /** An invoice's metadata.orderId (the seller's own order); null for the storefront's orders. */
    seller_order_id: string | null
  }
  keys: { product_id: number; key: string; generated: boolean }[]
  payments: AdminPayment[]
  mails: {
    id: number
    kind: string
    to_email: string
    status: string
    attempts: number
    last_error: string | null
    sent_at: string | null
    next_attempt_at: string
  }[]
}

export interface AdminPayment {
  id: number
  /** The chain the transfer is on. */
  chain: ChainId
  order_id: string | null
  tx_id: string
  /** The transaction's page on its chain's explorer. */
  tx_url: string
  token: TokenSymbol
  /** Decimal string of the token amount, every decimal the token has on its chain. */
  amount: string
  from_address: string
  to_address: string
  block_timestamp: number
  block_number: number | null
  /** credited: pays order_id; unmatched: pays nothing (order_id is the order whose address it reached, if any). */
  status: 'credited' | 'unmatched'
  reason: UnmatchedReason | null
  late: boolean
  created_at: string
}

export interface AdminWalletAddress {
  address: string
  created_at: string
  leased_order_id: string | null
  /** free: can be leased now; leased: a pending order holds it; cooling: resting after its order ended. */
  state: 'free' | 'leased' | 'cooling'
  /** While cooling: when it is free again. */
  cooldown_until: string | null
  order_status: string | null
}

export interface FetchWalletAddressesAnswer {
  success: true
  addresses: string[]
  details: AdminWalletAddress[]
  free_count: number
  leased_count: number
  cooling_count: number
  /** Fewer than 20 % of the addresses are free. */
  low_free: boolean
}

export interface AdminProduct {
  id: number
  name: string
  description: string
  price: number
  image: string
  features: string[]
  video_id: string | null
  is_free: boolean
  download_url: string | null
  has_details: true
  featured: boolean
  created_at: string
  key_stock: number
  /** Name, description and features the operator wrote in Chinese and Russian (absent when none). */
  translations?: ProductTranslations
}
