import * as z from 'zod'
import { addressFormOf, addressForms } from './address-forms'
import { rowIdSchema } from './bounds'
import type { ChainId } from './chains'
import { orderIdSchema } from './checkout'
import { chainNames } from './networks'
import { TX_ID } from './order-status'
import { adminKeyField } from './rpc'

// Refunds of paid orders and returns of unmatched transfers (decision 039): the operator pays from
// their own wallet, the shop proves the transfer on the chain, in the chain and token the buyer paid
// with. Amounts are base units of the token at its decimals on that chain (the token table: USDT is 6
// on TRON, 18 on BNB Smart Chain; TRX in sun) and travel as decimal strings.

export const refundTokens = ['USDT', 'USDC', 'TRX'] as const
export type RefundToken = (typeof refundTokens)[number]
export const refundStatuses = ['awaiting_address', 'ready', 'sent', 'cancelled'] as const
export type RefundStatusName = (typeof refundStatuses)[number]
/** The networks a refund can be paid on: each chain by the name a buyer knows it by. */
export const refundNetworks = Object.values(chainNames) as [string, ...string[]]

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

/** Micro-units (6 decimals: micro-dollars, sun) as base units at `decimals`; exact, rounded down below 6. */
export function microsToUnits(micros: bigint, decimals: number): bigint {
  return decimals >= DECIMALS
    ? micros * 10n ** BigInt(decimals - DECIMALS)
    : micros / 10n ** BigInt(DECIMALS - decimals)
}

/** Base units at `decimals` as micro-units, rounded up (a part of a micro counts as a whole one). */
export function unitsToMicrosUp(units: bigint, decimals: number): bigint {
  if (decimals <= DECIMALS) return units * 10n ** BigInt(DECIMALS - decimals)
  const unit = 10n ** BigInt(decimals - DECIMALS)
  return (units + unit - 1n) / unit
}

/** The address in the form a refund on this chain keeps (EIP-55 on EVM chains), or null when it is not one. */
export function refundAddressFor(chain: ChainId, address: string): string | null {
  return addressFormOf(chain).normalize(address.trim())
}

/**
 * Whether `text` can still become an address of the chain's family as the buyer goes on typing
 * (a start of one: "T…" on TRON, "0x…" on an EVM chain). Past that, the field says so at once.
 */
export function mayBecomeAddressFor(chain: ChainId, text: string): boolean {
  return addressFormOf(chain).mayBecome(text.trim())
}

/** The refusal for an address that is not one of the chain's family. */
export function badAddressFor(chain: ChainId): string {
  return addressFormOf(chain).refusal
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
  alreadyReturned: 'This transfer is already being returned',
  wrongNetwork: 'This refund is paid on {network}, not on {given}',
  ourAddress: "This is one of the shop's own addresses: a refund must go to the buyer's wallet",
  badAddress: addressForms.tron.refusal,
  badEvmAddress: addressForms.evm.refusal,
  badAnyAddress: 'Enter a TRON address (T…, 34 characters) or an address that starts with 0x (42 characters)',
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
  .refine((v) => Object.values(addressForms).some((f) => f.looksLike(v)), refundMessages.badAnyAddress)

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
    p_transaction_hash: z.string().trim().regex(TX_ID, 'must be a 64-character hex transaction hash'),
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
  /** The name of the network it is paid on ("TRON", "BNB Smart Chain"). */
  network: string
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
  /** What the operator's QR holds while the refund is ready: the chain's payment URI with the amount (EIP-681), or the TRON address. */
  payment_uri: string | null
}

export interface FetchRefundsAnswer {
  success: true
  refunds: AdminRefund[]
}

/** What is left to refund of an order, per token (decimal strings). */
export interface RefundableAnswer {
  success: true
  paid: boolean
  /** The stablecoin the buyer paid with (the refund goes back in it); `usdt` is what is left of it. */
  stable_token: 'USDT' | 'USDC'
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
  /** The network it is paid on ("TRON", "BNB Smart Chain"). */
  network: z.enum(refundNetworks),
  /** The order's keys are disabled once it is fully refunded. */
  disable_keys: z.boolean(),
  status: z.enum(refundStatuses),
  address: z.string().nullable(),
  sent_at: z.string().nullable(),
  tx_url: z.string().nullable(),
})
export type DashboardRefund = z.infer<typeof dashboardRefundSchema>
