import { z } from 'zod'
import { dateTimeSchema } from './bounds'
import type { TokenSymbol } from './chains'
import { adminKeyField } from './rpc'
import { isValidTronAddress } from './tron-address'

// The admin's reconciliation view: per address and token, chain vs ledger for a period.

export const reconcileInputSchema = z
  .object({
    ...adminKeyField,
    p_from: dateTimeSchema.optional(),
    p_to: dateTimeSchema.optional(),
    /** Also ask the explorer what this address received (two requests). */
    p_chain_address: z
      .string()
      .trim()
      .max(64)
      .refine(isValidTronAddress, 'must be a TRON address')
      .optional(),
  })
  .strict()

export interface ReconcileRowAnswer {
  address: string
  token: TokenSymbol
  /** Decimal strings with 6 decimals; chain is null unless the chain was asked. */
  chain: string | null
  chain_count: number | null
  ledger: string
  ledger_count: number
  credited: string
  unmatched: string
  ties: boolean
}

export interface ReconcileAnswer {
  success: true
  from: string
  to: string
  rows: ReconcileRowAnswer[]
  order_mismatches: { order_id: string; token: string; recorded: string; credited: string }[]
  chain_errors: { address: string; message: string }[]
  ties: boolean
}
