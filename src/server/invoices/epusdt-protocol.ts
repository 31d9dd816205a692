import { createHash, timingSafeEqual } from 'node:crypto'
import * as z from 'zod'
import { formatCents } from '../../shared/money'

// The epusdt order protocol's wire rules (decision 056): its signature, its amounts written as
// JSON numbers, its trade types and the fields of create-transaction and of the paid callback.
// No float ever holds an amount: numbers arrive as JSON and are read as their decimal text.

/**
 * epusdt's signature: every parameter but `signature` whose value is not empty, sorted by name,
 * written name=value and joined by '&', the shared token appended, MD5 in lower-case hex. Null when
 * a value is not a string or number (epusdt refuses those: nothing to sign them as).
 */
export function epusdtSignature(params: Record<string, unknown>, token: string): string | null {
  const pairs: string[] = []
  for (const [name, value] of Object.entries(params)) {
    if (name === 'signature' || value === null || value === undefined || value === '') continue
    if (typeof value === 'string') pairs.push(`${name}=${value}`)
    else if (typeof value === 'number' && Number.isFinite(value)) pairs.push(`${name}=${String(value)}`)
    else return null
  }
  pairs.sort()
  return createHash('md5')
    .update(`${pairs.join('&')}${token}`, 'utf8')
    .digest('hex')
}

/** The request's signature checked in constant time (upper-case hex taken too). */
export function epusdtSignatureMatches(params: Record<string, unknown>, token: string): boolean {
  const given = params.signature
  if (typeof given !== 'string' || !/^[0-9a-fA-F]{32}$/.test(given)) return false
  const expected = epusdtSignature(params, token)
  return expected !== null && timingSafeEqual(Buffer.from(expected), Buffer.from(given.toLowerCase()))
}

/** A decimal's text as a JSON number writes it: no trailing zeros ("28.80" → "28.8", "10.00" → "10"). */
export function plainDecimal(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text
}

/** Token cents written as epusdt's actual_amount ("4.00" → "4"). */
export const centsAsAmount = (cents: number) => plainDecimal(formatCents(cents))

const E8 = 100_000_000n

/** A fiat decimal ("28.88", at most 8 decimals) as an integer of 1e-8 units. */
export function decimalE8(text: string): bigint {
  const [whole = '0', fraction = ''] = text.split('.')
  return BigInt(whole) * E8 + BigInt(`${fraction}00000000`.slice(0, 8))
}

/** What the buyer pays, in token cents: the fiat amount at the rate (fiat per token), rounded up to the cent. */
export function fiatToTokenCents(amountE8: bigint, rateE8: bigint): bigint {
  const numerator = amountE8 * 100n
  return (numerator + rateE8 - 1n) / rateE8
}

/** epusdt's trade types (`usdt.trc20`…) and the payment methods (Greenfield's ids) they are here. */
export const epusdtTradeTypes: Readonly<Record<string, string>> = {
  'usdt.trc20': 'USDT-TRON',
  'usdc.trc20': 'USDC-TRON',
  'usdt.erc20': 'USDT-ETHEREUM',
  'usdc.erc20': 'USDC-ETHEREUM',
  'usdt.bep20': 'USDT-BSC',
  'usdc.bep20': 'USDC-BSC',
  'usdt.polygon': 'USDT-POLYGON',
  'usdc.polygon': 'USDC-POLYGON',
  'usdt.arbitrum': 'USDT-ARBITRUM',
  'usdc.arbitrum': 'USDC-ARBITRUM',
  'usdc.base': 'USDC-BASE',
  'usdt.solana': 'USDT-SOLANA',
  'usdc.solana': 'USDC-SOLANA',
}

/** The trade type of a payment method (USDT-TRON → usdt.trc20), when epusdt has one. */
export function tradeTypeOf(paymentMethod: string): string | null {
  return Object.entries(epusdtTradeTypes).find(([, m]) => m === paymentMethod)?.[0] ?? null
}

const decimal = z
  .union([z.number(), z.string().max(40)])
  .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
  .pipe(z.string().regex(/^\d{1,12}(\.\d{1,8})?$/, 'must be a decimal amount such as 28.88'))

const url = z.string().trim().min(1, 'is required').max(2000, 'must be at most 2000 characters')

/** create-transaction's fields (others are signed but ignored). */
export const epusdtCreateSchema = z.object({
  order_id: z
    .string({ error: 'is required (a string)' })
    .trim()
    .min(1, 'is required')
    .max(64, 'must be at most 64 characters')
    .regex(/^[^\p{Cc}]+$/u, 'must not hold control characters'),
  amount: decimal,
  notify_url: url,
  redirect_url: url.nullish(),
  trade_type: z.string().trim().max(40, 'must be at most 40 characters').nullish(),
  timeout: z
    .union([
      z.number(),
      z
        .string()
        .regex(/^\d{1,9}$/, 'must be whole seconds')
        .transform(Number),
    ])
    .pipe(
      z
        .number()
        .int('must be whole seconds')
        .min(60, 'must be at least 60')
        .max(86_400, 'must be at most 86400'),
    )
    .nullish(),
})
export type EpusdtCreateRequest = z.infer<typeof epusdtCreateSchema>

/** What an epusdt invoice keeps of its request (in the invoice's checkout, beside redirectURL). */
export interface EpusdtTerms {
  notifyUrl: string
  /** The seller's fiat and amount as sent ("28.88"), and the locked rate (fiat per token). */
  fiat: string
  amount: string
  rate: string
  tradeType: string | null
}

/** A JSON object whose amount fields are written as numbers from their decimal text. */
function jsonWithNumbers(fields: Record<string, string | number>, numeric: ReadonlySet<string>): string {
  const parts = Object.entries(fields).map(
    ([name, value]) => `${JSON.stringify(name)}:${numeric.has(name) ? String(value) : JSON.stringify(value)}`,
  )
  return `{${parts.join(',')}}`
}

const AMOUNTS = new Set(['amount', 'actual_amount', 'expiration_time', 'status', 'status_code'])

/** The answer to create-transaction: epusdt's envelope, amounts as JSON numbers. */
export function createAnswer(
  data: {
    tradeId: string
    orderId: string
    amount: string
    actualAmount: string
    token: string
    expirationTime: number
    paymentUrl: string
  },
  requestId: string,
): string {
  const inner = jsonWithNumbers(
    {
      trade_id: data.tradeId,
      order_id: data.orderId,
      amount: plainDecimal(data.amount),
      actual_amount: data.actualAmount,
      token: data.token,
      expiration_time: data.expirationTime,
      payment_url: data.paymentUrl,
    },
    AMOUNTS,
  )
  return `{"status_code":200,"message":"success","data":${inner},"request_id":${JSON.stringify(requestId)}}`
}

/** The paid callback's fields as kept in the webhook outbox (amounts as text, no signature yet). */
export function callbackFields(p: {
  tradeId: string
  orderId: string
  amount: string
  actualAmount: string
  token: string
  txId: string | null
}): Record<string, string | number> {
  return {
    trade_id: p.tradeId,
    order_id: p.orderId,
    amount: plainDecimal(p.amount),
    actual_amount: p.actualAmount,
    token: p.token,
    block_transaction_id: p.txId ?? '',
    // epusdt's statuses: 1 waiting, 2 paid, 3 expired. The callback is sent once paid.
    status: 2,
  }
}

/** The callback's body as posted: the kept fields signed with the token, amounts as JSON numbers. */
export function signedCallbackBody(kept: string, token: string): string {
  const fields = JSON.parse(kept) as Record<string, string | number>
  const signature = epusdtSignature(fields, token) as string
  const { status, ...rest } = fields
  return jsonWithNumbers({ ...rest, signature, status: status as number }, AMOUNTS)
}
