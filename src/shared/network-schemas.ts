import * as z from 'zod'
import { chainFamilies, chainIds, tokenSymbols } from './chains'

// The schemas of chains, tokens and the payment networks' answer (secure_get_payment_networks). Apart
// from chains.ts and networks.ts, which the storefront's first load uses without the schema library.

export const chainIdSchema = z.enum(chainIds)
export const tokenSymbolSchema = z.enum(tokenSymbols)

export const paymentNetworkSchema = z.object({
  chain: chainIdSchema,
  family: z.enum(chainFamilies),
  tokens: z.array(z.object({ symbol: tokenSymbolSchema, decimals: z.number().int() })),
  /** Blocks on top of a transfer before it pays (the block itself counts); null: the chain says when. */
  confirmations: z.number().int().nullable(),
})
export type PaymentNetwork = z.infer<typeof paymentNetworkSchema>

export const paymentNetworksAnswerSchema = z.object({
  success: z.literal(true),
  networks: z.array(paymentNetworkSchema),
})
export type PaymentNetworksAnswer = z.infer<typeof paymentNetworksAnswerSchema>
