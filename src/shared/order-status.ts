import * as z from 'zod'
import { orderIdSchema, orderSecretSchema } from './checkout'
import { INVOICE_ID } from './invoice-page'
import { chainIdSchema, tokenSymbolSchema } from './network-schemas'
import { orderStatusValues } from './order-statuses'

// The payment page's watch: the server watches the chain, the browser asks the server.

/** An invoice's public id (its hosted page's address). */
export const invoiceIdSchema = z.string().regex(INVOICE_ID, 'must be an invoice id')

/** Without the order's secret the answer only says whether the order is paid (limitedOrderStatusSchema). */
export const orderStatusInputSchema = z
  .object({
    p_order_id: orderIdSchema,
    p_order_secret: orderSecretSchema.optional(),
    /**
     * The hosted page of an invoice has no secret: the invoice's id, when it names this order's
     * invoice, unlocks the full status (never the access token).
     */
    p_invoice_id: invoiceIdSchema.optional(),
    /**
     * The long poll: the `version` of the answer the page already has. The server then answers when
     * something changed, or after at most STATUS_WAIT_MS with the same answer.
     */
    p_known_version: z
      .string()
      .regex(/^[0-9a-f]{1,64}$/, 'must be the version of an earlier answer')
      .optional(),
  })
  .strict()

/** Where the payment page opens its stream of news (a POST: the secret never travels in a URL a log keeps). */
export const STATUS_STREAM_PATH = '/api/order-status/stream'

/** The payment page's stream of news: the order and its secret. */
export const orderStatusStreamInputSchema = z
  .object({
    p_order_id: orderIdSchema,
    p_order_secret: orderSecretSchema.optional(),
    // An invoice's hosted page follows its order by the invoice's id, as its status call does.
    p_invoice_id: invoiceIdSchema.optional(),
  })
  .strict()

/** The longest a status call with p_known_version waits (the browser gives a call 15 s). */
export const STATUS_WAIT_MS = 10_000

/** The chain's result of a transfer that failed (receipt.result), as the buyer's page explains it. */
export const failedTransferSchema = z.object({
  tx_id: z.string(),
  token: tokenSymbolSchema,
  /** In the token (USDT, USDC or TRX). */
  amount: z.number(),
  /** OUT_OF_ENERGY, REVERT, … as the chain says it. */
  reason: z.string(),
})

/** Transfers seen in the unsolidified head (decision 024): never a payment until solidified. */
export const orderSightingsSchema = z.object({
  /** A transfer seen and not solidified yet; null when none. */
  confirming: z
    .object({
      /** Dollars seen and not solidified yet (TRX at the order's locked rate). */
      amount_seen: z.number(),
      /** Dollars still missing once what was seen is confirmed (0: enough). */
      missing: z.number(),
      /** The (highest) block the transfer was seen in, the head and the solidified height. */
      block: z.number(),
      head_block: z.number().nullable(),
      solid_block: z.number().nullable(),
      blocks_left: z.number().nullable(),
      seconds_left: z.number().nullable(),
      /** 0–1: blocks built on it out of those the chain needs before it is final. */
      progress: z.number(),
    })
    .nullable(),
  /** The last transfer seen was not in the solidified chain: waiting again. */
  dropped: z.boolean(),
  failed: z.array(failedTransferSchema),
})
export type OrderSightings = z.infer<typeof orderSightingsSchema>

export const limitedOrderStatusSchema = z.object({
  success: z.literal(true),
  order_id: z.string(),
  paid: z.boolean(),
})

export const orderStatusAnswerSchema = z.discriminatedUnion('success', [
  z.object({
    success: z.literal(true),
    order_id: z.string(),
    status: z.enum(orderStatusValues),
    /** Order total in dollars. */
    total: z.number(),
    /** USDT received so far, in dollars (an underpaid order stays pending and shows this). */
    amount_received: z.number(),
    tx_hash: z.string().nullable(),
    /** Only once paid: the buyer's dashboard token. */
    access_token: z.string().nullable(),
    /** ISO times of the window's end and of the late-payment grace's end. */
    window_ends_at: z.string(),
    grace_until: z.string(),
    paid_at: z.string().nullable(),
    late: z.boolean(),
    /** The server reads the chain late (its providers are slow or down): payments are seen later. */
    detection_delayed: z.boolean(),
    sightings: orderSightingsSchema,
    /**
     * A pending order paid in part: what arrived and what is still missing in the order's token, as
     * decimal strings to the token's own decimals (18 on BNB Smart Chain), the missing part rounded
     * up (shared/token-amount.ts); the missing part again in base units, and the wallet link (the
     * QR code's text) asking for exactly that on the order's network (null on TRON, whose QR code is
     * the address alone).
     */
    shortfall: z
      .object({
        token: tokenSymbolSchema,
        received: z.string(),
        missing: z.string(),
        missingUnits: z.string().regex(/^\d+$/).optional(),
        paymentUri: z.string().nullable().optional(),
      })
      .nullable()
      .optional(),
    /** Changes whenever anything above does: the long poll's p_known_version. */
    version: z.string(),
  }),
  z.object({ success: z.literal(false), error: z.string() }),
])
export type OrderStatusAnswer = z.infer<typeof orderStatusAnswerSchema>

/** A transaction id as a buyer or operator may paste it: 64 hex digits (TRON, EVM) or a base58 Solana signature; the chain's own check follows. */
export const TX_ID = /^(?:(?:0x)?[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{64,88})$/

/** The buyer's "I already paid" call; the server verifies the hash on chain itself and never trusts p_amount. */
export const confirmTransactionInputSchema = z
  .object({
    p_order_id: orderIdSchema,
    p_transaction_hash: z.string().trim().regex(TX_ID, 'must be a 64-character hex transaction hash'),
    /** The chain the transaction is on; default the order's. */
    p_chain: chainIdSchema.optional(),
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

/**
 * The statuses of an order the buyer has paid for: paid, completed (paid and done by the shop), and
 * refunded wholly or in part since. A paid order stays paid in every rule about money received
 * (settling, the ledger, the buyer's status, revenue) after a refund: refunds are counted apart
 * (src/server/refunds).
 */
export const PAID_STATUSES = ['paid', 'completed', 'refunded', 'partially_refunded'] as const
export type PaidStatus = (typeof PAID_STATUSES)[number]

/** "Paid for": the one test of whether an order has been paid for (refunded since included). */
export function isPaidStatus(status: string): status is PaidStatus {
  return (PAID_STATUSES as readonly string[]).includes(status)
}
