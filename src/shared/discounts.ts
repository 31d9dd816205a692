import * as z from 'zod'
import { dateTimeSchema, rowIdSchema } from './bounds'
import { discountCodeSchema, emailSchema, orderLineSchema } from './checkout'
import { MAX_ORDER_LINES } from './checkout-rules'
import { formatCents } from './money'
import { adminKeyField } from './rpc'

// Contracts of discount codes: the checkout's check, the order's code, and the admin's calls.
// Amounts are integer cents and percentages integer basis points (1250 = 12.5 %), never floats.

/** The refusals a buyer reads next to the code field (and in the order call's answer). */
export const discountMessages = {
  unknown: 'This discount code does not exist',
  notStarted: 'This discount code is not valid yet',
  expired: 'This discount code has expired',
  notForProducts: 'This discount code does not apply to the products in your cart',
  minimum: (cents: number) => `This discount code needs an order of at least $${formatCents(cents)}`,
  usedUp: 'This discount code has been used up',
  usedByEmail: 'This discount code has already been used with this e-mail address',
  toZero: 'This discount code cannot bring the total to zero',
  tooMany: 'Too many attempts. Please wait a minute and try again.',
} as const

export const checkDiscountInputSchema = z
  .object({
    p_code: discountCodeSchema,
    p_items: z.array(orderLineSchema).min(1, 'the cart is empty').max(MAX_ORDER_LINES),
    /** Checked against the per-address limit when given. */
    p_email: emailSchema.optional(),
  })
  .strict()

export const checkDiscountAnswerSchema = z.discriminatedUnion('success', [
  z.object({
    success: z.literal(true),
    /** The code as the shop spells it. */
    code: z.string(),
    subtotal_cents: z.number().int(),
    discount_cents: z.number().int(),
    total_cents: z.number().int(),
  }),
  z.object({ success: z.literal(false), error: z.string() }),
])
export type CheckDiscountAnswer = z.infer<typeof checkDiscountAnswerSchema>

const MAX_CENTS = 100_000_000_00
const cents = z
  .number()
  .int('must be whole cents')
  .min(1, 'must be more than 0')
  .max(MAX_CENTS, 'is too large')
const count = z.number().int('must be a whole number').min(1, 'must be at least 1').max(1_000_000_000)
export const saveDiscountInputSchema = z
  .object({
    ...adminKeyField,
    /** Absent to create a code; the code's id to edit it. */
    p_id: rowIdSchema.optional(),
    p_code: discountCodeSchema,
    p_kind: z.enum(['percent', 'fixed']),
    p_percent_bp: z
      .number()
      .int('must be whole basis points')
      .min(1, 'must be more than 0')
      .max(10_000, 'must be at most 100 %')
      .nullable(),
    p_amount_cents: cents.nullable(),
    p_min_total_cents: cents.nullable(),
    p_max_discount_cents: cents.nullable(),
    /** Products the code applies to; null or empty = all. */
    p_product_ids: z.array(rowIdSchema).max(500).nullable(),
    p_starts_at: dateTimeSchema.nullable(),
    p_ends_at: dateTimeSchema.nullable(),
    p_max_uses: count.nullable(),
    p_max_uses_per_email: count.nullable(),
    p_disabled: z.boolean(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.p_kind === 'percent' && v.p_percent_bp === null)
      ctx.addIssue({ code: 'custom', path: ['p_percent_bp'], message: 'Enter the percentage' })
    if (v.p_kind === 'fixed' && v.p_amount_cents === null)
      ctx.addIssue({ code: 'custom', path: ['p_amount_cents'], message: 'Enter the amount' })
    if (v.p_starts_at && v.p_ends_at && Date.parse(v.p_ends_at) <= Date.parse(v.p_starts_at))
      ctx.addIssue({ code: 'custom', path: ['p_ends_at'], message: 'The end must be after the start' })
  })
export type SaveDiscountInput = z.infer<typeof saveDiscountInputSchema>

export const discountCodeRowSchema = z.object({
  id: rowIdSchema,
  code: z.string(),
  kind: z.enum(['percent', 'fixed']),
  percent_bp: z.number().nullable(),
  amount_cents: z.number().nullable(),
  min_total_cents: z.number().nullable(),
  max_discount_cents: z.number().nullable(),
  product_ids: z.array(z.number()).nullable(),
  starts_at: z.string().nullable(),
  ends_at: z.string().nullable(),
  max_uses: z.number().nullable(),
  max_uses_per_email: z.number().nullable(),
  disabled: z.boolean(),
  created_at: z.string(),
  /** Orders placed with the code that are not cancelled (pending ones hold their use). */
  uses: z.number(),
  /** Paid orders placed with the code, and what they brought in (cents, after the discount). */
  paid_orders: z.number(),
  revenue_cents: z.number(),
  discount_given_cents: z.number(),
})
export type DiscountCodeRow = z.infer<typeof discountCodeRowSchema>

export const discountAdminMessages = {
  duplicate: 'A discount code with this name already exists',
  notFound: 'Discount code not found',
} as const

export const setDiscountDisabledInputSchema = z
  .object({
    ...adminKeyField,
    p_id: rowIdSchema,
    p_disabled: z.boolean(),
  })
  .strict()

/** "12.5" from basis points, by integer arithmetic. */
export function basisPointsToText(bp: number | null): string {
  if (bp === null) return ''
  const rest = bp % 100
  return rest === 0
    ? String(Math.floor(bp / 100))
    : `${Math.floor(bp / 100)}.${String(rest).padStart(2, '0').replace(/0$/, '')}`
}

/** A number typed with at most two decimals as hundredths ("12.5" → 1250): '' is null, else NaN. */
export function hundredthsFromText(text: string): number | null {
  const typed = text.trim()
  if (typed === '') return null
  const match = /^(\d{1,10})(?:[.,](\d{1,2}))?$/.exec(typed)
  if (!match) return Number.NaN
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
}

/** A whole number typed in a field: '' is null, anything else NaN. */
export function countFromText(text: string): number | null {
  const typed = text.trim()
  if (typed === '') return null
  return /^\d{1,10}$/.test(typed) ? Number(typed) : Number.NaN
}

/** What a code gives, as the admin list and the buyer read it: "15 % off" or "$5.00 off". */
export function describeDiscount(
  code: Pick<DiscountCodeRow, 'kind' | 'percent_bp' | 'amount_cents'>,
): string {
  return code.kind === 'percent'
    ? `${basisPointsToText(code.percent_bp)} % off`
    : `$${formatCents(code.amount_cents ?? 0)} off`
}
