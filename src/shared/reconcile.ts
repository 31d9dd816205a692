import * as z from 'zod'
import { addressFormOf } from './address-forms'
import { dateTimeSchema } from './bounds'
import { type ChainId, firstChain, type TokenSymbol } from './chains'
import { chainIdSchema } from './network-schemas'
import { adminKeyField } from './rpc'

// The admin's reconciliation view of one chain: per address and token, chain vs ledger for a period.

export const reconcileInputSchema = z
  .object({
    ...adminKeyField,
    p_from: dateTimeSchema.optional(),
    p_to: dateTimeSchema.optional(),
    /** The chain reconciled: one the shop takes (default the first chain, TRON). */
    p_chain: chainIdSchema.optional(),
    /** Also ask the chain what this address (one of the chain's family) received. */
    p_chain_address: z.string().trim().max(64).optional(),
  })
  .strict()
  .superRefine((input, ctx) => {
    const address = input.p_chain_address
    if (address === undefined) return
    const form = addressFormOf(input.p_chain ?? firstChain)
    if (!form.looksLike(address)) {
      ctx.addIssue({ code: 'custom', path: ['p_chain_address'], message: form.mustBe })
    }
  })

export interface ReconcileRowAnswer {
  /** The chain reconciled, as on every row. */
  network: ChainId
  address: string
  token: TokenSymbol
  /** The token's decimals on that chain (the token table): 18 for BNB Smart Chain's USDT and USDC. */
  decimals: number
  /** Exact decimal strings with the token's decimals; chain is null unless the chain was asked. */
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
  /** The chain reconciled, and every chain the shop takes (the page offers a choice when several). */
  network: ChainId
  enabled_chains: ChainId[]
  from: string
  to: string
  rows: ReconcileRowAnswer[]
  /** Recorded vs credited: stablecoins in dollars with 6 decimals (token 'USDT'), TRX in TRX. */
  order_mismatches: { order_id: string; token: TokenSymbol; recorded: string; credited: string }[]
  /** narrow: the period takes more requests than one check may send; a shorter one can be checked. */
  chain_errors: { address: string; message: string; narrow: boolean }[]
  ties: boolean
}
