import * as z from 'zod'
import { SimInputError } from './sim-chain'

// What the control API (/_sim/*) and the devchain's handle accept, checked with zod; a bad request
// is a SimInputError, answered as 400 with every issue named.

export const FAULT_MODES = [
  'none',
  'http429',
  'http403',
  'http503',
  'http500',
  'timeout',
  'malformed',
  'empty',
] as const
export const MAX_MINE = 10_000

const logSchema = z.strictObject({
  to: z.string({ error: 'logs[].to is required: a TRON address' }),
  amount: z.union([z.string(), z.number()], { error: 'logs[].amount is required: a decimal string' }),
  from: z.string().optional(),
  contract: z.string().optional(),
  type: z.enum(['Transfer', 'Approval']).optional(),
})

export const transferSchema = z.strictObject({
  to: z.string({ error: 'to must be a TRON address' }).optional(),
  amount: z
    .union([z.string(), z.number()], { error: 'amount must be a decimal string such as "12.5"' })
    .optional(),
  token: z.enum(['USDT', 'TRX']).default('USDT'),
  from: z.string().optional(),
  spender: z.string().optional(),
  method: z.enum(['transfer', 'transferFrom']).optional(),
  via_contract: z.string().optional(),
  logs: z.array(logSchema).optional(),
  contract: z.string().optional(),
  type: z.enum(['Transfer', 'Approval']).default('Transfer'),
  txid: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'txid must be 64 hex characters')
    .optional(),
  failed: z.union([z.boolean(), z.enum(['REVERT', 'OUT_OF_ENERGY'])]).default(false),
  rejected: z.boolean().optional(),
  unnamed: z.boolean().optional(),
  swap_trx: z
    .array(
      z.strictObject({
        to: z.string(),
        amount: z.union([z.string(), z.number()], {
          error: 'amount must be a decimal string such as "12.5"',
        }),
      }),
    )
    .min(1)
    .max(16)
    .optional(),
})

export const dropSchema = z.strictObject({
  txid: z.string().regex(/^[0-9a-fA-F]{64}$/, 'txid must be 64 hex characters'),
})

export const mineSchema = z.strictObject({
  blocks: z.number().int().min(1).max(MAX_MINE).default(1),
})

export const faultSchema = z.strictObject({
  mode: z.enum(FAULT_MODES),
  count: z.number().int().positive().optional(),
  path: z.string().min(1).optional(),
  suspend_seconds: z.number().int().min(1).max(600).optional(),
})

export const priceSchema = z.strictObject({
  usd: z.union([z.string(), z.number()]).transform((v) => String(v).trim()),
})

function describeIssues(error: z.ZodError): string {
  const messages = error.issues.map((issue) => {
    const path = issue.path.join('.')
    if (issue.code === 'unrecognized_keys') return `unknown field(s): ${issue.keys.join(', ')}`
    return path && !issue.message.startsWith(path) ? `${path}: ${issue.message}` : issue.message
  })
  return messages.join('; ') || 'invalid request body'
}

export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body)
  if (!result.success) throw new SimInputError(describeIssues(result.error))
  return result.data
}

export function validatePrice(usd: string): string {
  if (!/^(0|[1-9]\d*)(\.\d{1,8})?$/.test(usd) || /^0(\.0+)?$/.test(usd)) {
    throw new SimInputError(
      `usd must be a positive decimal with at most 8 decimals, got ${JSON.stringify(usd)}`,
    )
  }
  return usd
}
