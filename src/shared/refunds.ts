import { z } from 'zod'
import { rowIdSchema } from './bounds'
import { orderIdSchema } from './checkout'
import { adminKeyField } from './rpc'
import { isValidTronAddress } from './tron-address'

// Refunds of paid orders and returns of unmatched transfers (decision 039): the operator pays from
// their own wallet, the shop proves the transfer on the chain. Amounts are base units of the token
// (USDT 6 decimals, TRX in sun: 6 decimals too) and travel as decimal strings.

export const refundTokens = ['USDT', 'TRX'] as const
export type RefundToken = (typeof refundTokens)[number]
export const refundStatuses = ['awaiting_address', 'ready', 'sent', 'cancelled'] as const
export type RefundStatusName = (typeof refundStatuses)[number]
/** The networks a refund can be paid on (the shop follows TRON). */
export const refundNetworks = ['TRON'] as const

/** The buyer's link: 256 random bits, URL-safe; it works until an address is given, for this long. */
export const REFUND_LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/
export const REFUND_LINK_HOURS = 72

const DECIMALS = 6
const UNIT = 10n ** BigInt(DECIMALS)
const AMOUNT = /^(\d{1,12})(?:\.(\d{1,6}))?$/

/** "12.5" → 12500000n (6 decimals, exact); null when not a positive amount with at most 6 decimals. */
export function parseTokenAmount(text: string): bigint | null {
  const match = AMOUNT.exec(text.trim())
  if (!match) return null
  const units = BigInt(match[1] as string) * UNIT + BigInt((match[2] ?? '').padEnd(DECIMALS, '0'))
  return units > 0n ? units : null
}

/** 12500000n → "12.5" (trailing zeros trimmed, at least 2 decimals): what a wallet is typed with. */
export function formatTokenUnits(units: bigint): string {
  const sign = units < 0n ? '-' : ''
  const abs = units < 0n ? -units : units
  let fraction = (abs % UNIT).toString().padStart(DECIMALS, '0').replace(/0+$/, '')
  if (fraction.length < 2) fraction = fraction.padEnd(2, '0')
  return `${sign}${abs / UNIT}.${fraction}`
}

export const refundMessages = {
  orderNotFound: 'Order not found',
  paymentNotFound: 'Transfer not found',
  refundNotFound: 'Refund not found',
  notPaid: 'Only a paid order can be refunded',
  nothingInToken: 'The order received nothing in {token}',
  tooMuch: 'The amount is more than what is left to refund in {token} ({left})',
  badAmount: 'Enter an amount in {token} with at most 6 decimals',
  notUnmatched: 'Only a transfer that pays no order can be returned',
  notOnTron: 'Only a USDT or TRX transfer on TRON can be returned for now',
  alreadyReturned: 'This transfer is already being returned',
  ourAddress: "This is one of the shop's own addresses: a refund must go to the buyer's wallet",
  badAddress: 'Enter a TRON address (it starts with T, 34 characters)',
  notAwaitingAddress: 'This refund already has its address',
  notReady: 'This refund is not waiting for a payment',
  notCancellable: 'A refund that was sent cannot be cancelled',
  noEmail: 'Nobody to e-mail: enter the address the buyer gave you',
  linkInvalid: 'This link has expired or was already used. Ask the shop for a new one.',
  tooMany: 'Too many requests. Please wait a while and try again.',
  // The operator's transaction hash, checked on the chain: exactly what does not match.
  txNotFound: 'The chain does not know this transaction',
  txNotFinal: 'This transaction is not final yet: try again in a minute',
  txFailed: 'This transaction failed on the chain ({result}): nothing was sent',
  txWrongToken: 'This transaction sent no {token}',
  txWrongRecipient: 'This transaction sent {token} to {to}, not to the refund address {address}',
  txTooLittle: 'This transaction sent {sent} {token}; the refund is {amount} {token}',
  txTooEarly: 'This transaction was made before the refund had its address (before {ready})',
  txUsed: 'This transaction already proves another refund',
  explorerDown: 'The chain cannot be read right now: try again in a minute',
} as const

/** A message with its {values} filled in. */
export function fillMessage(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (all, name: string) => values[name] ?? all)
}

const requestKey = z.uuid('must be a request key (a UUID)')
const reasonText = z.string().trim().min(1, 'is required').max(500)
export const refundAddressSchema = z
  .string()
  .trim()
  .max(100)
  .refine((v) => isValidTronAddress(v), refundMessages.badAddress)

export const createRefundInputSchema = z
  .object({
    ...adminKeyField,
    p_order_id: orderIdSchema,
    p_token: z.enum(refundTokens),
    /** Everything left to refund in the token; otherwise p_amount. */
    p_full: z.boolean(),
    p_amount: z.string().trim().max(40).optional(),
    p_reason: reasonText,
    /** Disable the order's keys once it is fully refunded. */
    p_disable_keys: z.boolean(),
    p_request_key: requestKey,
    /** An address the buyer gave by other means: the refund is ready at once, without a link. */
    p_address: refundAddressSchema.optional(),
  })
  .strict()
export type CreateRefundInput = z.infer<typeof createRefundInputSchema>

/** The admin's form: a part needs its amount. */
export const refundFormSchema = createRefundInputSchema
  .pick({
    p_token: true,
    p_full: true,
    p_amount: true,
    p_reason: true,
    p_disable_keys: true,
    p_address: true,
  })
  .refine((v) => v.p_full || (v.p_amount ?? '') !== '', { message: 'is required', path: ['p_amount'] })

export const createReturnInputSchema = z
  .object({
    ...adminKeyField,
    p_payment_id: rowIdSchema,
    p_request_key: requestKey,
    p_address: refundAddressSchema.optional(),
  })
  .strict()

export const refundIdInputSchema = z.object({ ...adminKeyField, p_refund_id: rowIdSchema }).strict()

export const setRefundAddressInputSchema = z
  .object({ ...adminKeyField, p_refund_id: rowIdSchema, p_address: refundAddressSchema })
  .strict()

export const verifyRefundInputSchema = z
  .object({
    ...adminKeyField,
    p_refund_id: rowIdSchema,
    p_transaction_hash: z
      .string()
      .trim()
      .regex(/^(0x)?[0-9a-fA-F]{64}$/, 'must be a 64-character hex transaction hash'),
  })
  .strict()

export const fetchRefundsInputSchema = z
  .object({ ...adminKeyField, p_order_id: orderIdSchema.optional() })
  .strict()

export interface AdminRefund {
  id: number
  kind: 'refund' | 'return'
  order_id: string | null
  payment_id: number | null
  reason: string
  token: RefundToken
  /** Decimal string in the token ("12.5"). */
  amount: string
  status: RefundStatusName
  address: string | null
  address_source: 'buyer' | 'operator' | null
  suggested_address: string | null
  email: string | null
  disable_keys: boolean
  link_expires_at: string | null
  link_used_at: string | null
  ready_at: string | null
  sent_at: string | null
  cancelled_at: string | null
  tx_id: string | null
  tx_url: string | null
  tx_from: string | null
  tx_amount: string | null
  verified_by: 'watch' | 'hash' | null
  created_by: string
  created_at: string
}

export interface FetchRefundsAnswer {
  success: true
  refunds: AdminRefund[]
}

/** What is left to refund of an order, per token (decimal strings). */
export interface RefundableAnswer {
  success: true
  usdt: string
  trx: string
}

// The buyer's page, /refund/{token}.
export const openRefundInputSchema = z.object({ p_token: z.string().max(200) }).strict()

export const submitRefundAddressInputSchema = z
  .object({
    p_token: z.string().max(200),
    p_address: refundAddressSchema,
    p_network: z.enum(refundNetworks),
  })
  .strict()

export const buyerRefundSchema = z.object({
  amount: z.string(),
  token: z.enum(refundTokens),
  network: z.enum(refundNetworks),
  status: z.enum(refundStatuses),
  /** The first 8 characters of the order's id; null for a return with no order. */
  order_ref: z.string().nullable(),
  /** The address the payment came from: a suggestion only. */
  suggested_address: z.string().nullable(),
  address: z.string().nullable(),
  tx_url: z.string().nullable(),
  link_expires_at: z.string().nullable(),
})
export type BuyerRefund = z.infer<typeof buyerRefundSchema>

export const openRefundAnswerSchema = z.discriminatedUnion('success', [
  z.object({ success: z.literal(true), refund: buyerRefundSchema }),
  z.object({ success: z.literal(false), error: z.string() }),
])

/** A refund as the buyer's dashboard shows it. */
export const dashboardRefundSchema = z.object({
  amount: z.string(),
  token: z.enum(refundTokens),
  status: z.enum(refundStatuses),
  address: z.string().nullable(),
  sent_at: z.string().nullable(),
  tx_url: z.string().nullable(),
})
export type DashboardRefund = z.infer<typeof dashboardRefundSchema>
