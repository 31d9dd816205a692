import * as z from 'zod'
import { rowIdSchema } from './bounds'
import { isValidEmail, MAX_EMAIL_LENGTH, MAX_ITEM_QUANTITY, MAX_ORDER_LINES } from './checkout-rules'
import { locales } from './locale'
import { chainIdSchema, tokenSymbolSchema } from './network-schemas'

// Contracts of checkout: the secure_create_order payload and answers, shared by the server's edge
// and the browser.

export {
  isValidEmail,
  MAX_EMAIL_LENGTH,
  MAX_ITEM_QUANTITY,
  MAX_ORDER_LINES,
  messages,
} from './checkout-rules'

export const emailSchema = z
  .string()
  .trim()
  .max(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`)
  .refine(isValidEmail, 'Please enter a valid email address')

const DISCOUNT_CODE_PATTERN = /^[A-Za-z0-9_-]{3,40}$/

/** A discount code as a buyer or the admin types it; matched case-insensitively. */
export const discountCodeSchema = z
  .string()
  .trim()
  .min(3, 'must be at least 3 characters')
  .max(40, 'must be at most 40 characters')
  .regex(DISCOUNT_CODE_PATTERN, 'letters, digits, - and _ only')

/** A cart line as the browser holds it; the server reads only the product id and the quantity. */
export const orderLineSchema = z.object({
  product: z.looseObject({ id: rowIdSchema }),
  quantity: z
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_ITEM_QUANTITY, `must be at most ${MAX_ITEM_QUANTITY}`),
})

export const createOrderInputSchema = z
  .object({
    p_email: emailSchema,
    p_items: z
      .array(orderLineSchema)
      .min(1, 'the cart is empty')
      .max(MAX_ORDER_LINES, `at most ${MAX_ORDER_LINES} lines per order`),
    /** The total the buyer saw, in dollars; the server recomputes it and refuses a mismatch. */
    p_total: z.number().finite(),
    /** The address secure_get_wallet_address offered; another is leased if it was taken meanwhile. */
    p_wallet_address: z.string().max(64).optional(),
    /** The buyer's language: the order e-mail and the dashboard link are written in it. */
    p_locale: z.enum(locales).optional(),
    /** One key per checkout attempt: a retried request answers the same order. */
    p_idempotency_key: z
      .string()
      .min(8)
      .max(100)
      .regex(/^[\w-]+$/, 'letters, digits, - and _ only')
      .optional(),
    /** A discount code; the server checks it and takes the discount off before comparing p_total. */
    p_discount_code: discountCodeSchema.optional(),
    /** The network the buyer will pay on (default TRON); the shop must have it enabled. */
    p_chain: chainIdSchema.optional(),
    /** The token the buyer will pay with (default the network's first stablecoin); accepted on p_chain. */
    p_token: tokenSymbolSchema.optional(),
  })
  .strict()
export type CreateOrderInput = z.infer<typeof createOrderInputSchema>

/** A watched network of an order: a payment in any of its tokens to the order's address counts. */
export const watchedNetworkSchema = z.object({ chain: chainIdSchema, tokens: z.array(tokenSymbolSchema) })

/** The network and token the buyer chose, and what to send there (the payment page's QR and amount). */
export const orderNetworkFields = {
  chain: chainIdSchema.optional(),
  token: tokenSymbolSchema.optional(),
  /** The token's decimals on that chain (18 for USDT/USDC on BNB Smart Chain, 6 elsewhere). */
  token_decimals: z.number().int().optional(),
  /** The total in the token's base units (decimal string, exact). */
  amount_units: z.string().optional(),
  /** What the QR code holds: the address (TRON) or an EIP-681 transfer URI (EVM). */
  payment_uri: z.string().optional(),
  /** Every enabled network on which a payment to the address is credited to this order. */
  watched: z.array(watchedNetworkSchema).optional(),
  /** Blocks on top of a transfer before it pays; null: the chain says when (TRON). */
  confirm_blocks: z.number().int().nullable().optional(),
  /** What those blocks take at the chain's block time (seconds): the wait the payment page names. */
  confirm_seconds: z.number().int().nullable().optional(),
}

export const createOrderAnswerSchema = z.discriminatedUnion('success', [
  z.object({
    success: z.literal(true),
    order_id: z.string(),
    /** Only the browser that placed the order gets it: it unlocks the order's full status and Cancel. */
    order_secret: z.string(),
    wallet_address: z.string(),
    /** ISO time the payment window closes (server clock). */
    window_ends_at: z.string(),
    total: z.number(),
    /** TRX to send instead, locked at order time (decimal string); absent when TRX is not offered. */
    trx_amount: z.string().optional(),
    /** The locked rate, USD per TRX (decimal string). */
    trx_rate: z.string().optional(),
    /** With a discount code: the code, the lines' sum and what was taken off it (dollars). */
    discount_code: z.string().optional(),
    subtotal: z.number().optional(),
    discount: z.number().optional(),
    /**
     * The browser's earlier order has a payment in flight: it stays pending and is paid when final,
     * and this order has an address of its own.
     */
    earlier_payment_confirming: z.literal(true).optional(),
    ...orderNetworkFields,
  }),
  z.object({ success: z.literal(false), error: z.string() }),
])
export type CreateOrderAnswer = z.infer<typeof createOrderAnswerSchema>

export const walletAddressAnswerSchema = z.discriminatedUnion('success', [
  z.object({ success: z.literal(true), wallet_address: z.string() }),
  z.object({ success: z.literal(false), error: z.string() }),
])

export const orderIdSchema = z.uuid('must be an order id')

/** The secret secure_create_order answered; the order id alone is not enough for what it unlocks. */
export const orderSecretSchema = z.string().max(100)

export const cancelOrderInputSchema = z
  .object({ p_order_id: orderIdSchema, p_order_secret: orderSecretSchema.optional() })
  .strict()
