import { z } from 'zod'
import { orderIdSchema, orderSecretSchema } from './checkout'

// The payment page's watch: the server watches the chain, the browser asks the server.

/** Without the order's secret the answer only says whether the order is paid (limitedOrderStatusSchema). */
export const orderStatusInputSchema = z
  .object({ p_order_id: orderIdSchema, p_order_secret: orderSecretSchema.optional() })
  .strict()

export const limitedOrderStatusSchema = z.object({
  success: z.literal(true),
  order_id: z.string(),
  paid: z.boolean(),
})

export const orderStatusAnswerSchema = z.discriminatedUnion('success', [
  z.object({
    success: z.literal(true),
    order_id: z.string(),
    status: z.enum(['pending', 'paid', 'completed', 'cancelled']),
    /** Order total in dollars. */
    total: z.number(),
    /** USDT received so far, in dollars (an underpaid order stays pending and shows this). */
    amount_received: z.number(),
    tx_hash: z.string().nullable(),
    /** Only once paid: the buyer's dashboard token. */
    access_token: z.string().nullable(),
    /** ISO times of the window's end and of the late-payment grace's end. */
    expires_at: z.string(),
    grace_until: z.string(),
    paid_at: z.string().nullable(),
    late: z.boolean(),
    /** The server reads the chain late (its providers are slow or down): payments are seen later. */
    detection_delayed: z.boolean(),
  }),
  z.object({ success: z.literal(false), error: z.string() }),
])
export type OrderStatusAnswer = z.infer<typeof orderStatusAnswerSchema>

const TX_ID = /^(0x)?[0-9a-fA-F]{64}$/

/** The buyer's "I already paid" call; the server verifies the hash on chain itself and never trusts p_amount. */
export const confirmTransactionInputSchema = z
  .object({
    p_order_id: orderIdSchema,
    p_transaction_hash: z.string().trim().regex(TX_ID, 'must be a 64-character hex transaction hash'),
    p_amount: z.number().finite().optional(),
    p_timestamp: z.number().finite().optional(),
    /** Without the order's secret a paid answer carries no access token. */
    p_order_secret: orderSecretSchema.optional(),
  })
  .strict()

export const confirmTransactionAnswerSchema = z.discriminatedUnion('success', [
  z.object({
    success: z.literal(true),
    access_token: z.string(),
    amount: z.number(),
    hash: z.string(),
    timestamp: z.number(),
  }),
  z.object({ success: z.literal(false), error: z.string() }),
])

/** secure_confirm_transaction's refusals: what the buyer reads under "Already paid?". */
export const confirmMessages = {
  unknownOrder: 'Order not found',
  notAwaiting: 'This order is no longer awaiting payment',
  notFound: 'Transaction not found on the blockchain. Check the hash and try again.',
  notConfirmed: 'This transaction is not confirmed yet. Please wait a minute and try again.',
  failed: 'This transaction failed on the blockchain',
  notForOrder: "This transaction does not pay this order's wallet address",
  alreadyUsed: 'This transaction has already been used for another order',
  explorerDown:
    'Checking the blockchain is delayed right now. Your order is still being watched and updates by itself once the payment is confirmed; there is no need to pay again.',
  confirming:
    'Your payment is being confirmed. This page updates by itself within a minute; there is no need to pay again.',
  tooMany: 'Too many attempts. Please wait a minute and try again.',
  held: 'The shop is checking this payment before the order is delivered. There is no need to pay again.',
  underpaid: (received: string, total: string) =>
    `Received ${received} of ${total} so far. Send the remaining amount to the same address.`,
} as const
