import type { PaymentNetworksAnswer } from '../../shared/networks'
import { emptyPayloadSchema } from '../../shared/rpc'
import type { ChainRegistry } from '../chains/chain-registry'
import { defineRpc } from '../rpc'

// The networks and tokens this shop takes, for the checkout's choice: every enabled chain, TRON first.

export function paymentNetworks(chains: ChainRegistry): PaymentNetworksAnswer {
  return {
    success: true,
    networks: chains.enabled().map((c) => ({
      chain: c.chain,
      family: c.family,
      tokens: c.tokens.map((t) => ({ symbol: t.symbol, decimals: t.decimals })),
      confirmations: c.confirmation.kind === 'depth' ? c.confirmation.blocks : null,
    })),
  }
}

export function networksRpcs(chains: ChainRegistry) {
  return [
    defineRpc({
      name: 'secure_get_payment_networks',
      input: emptyPayloadSchema,
      handler: async () => paymentNetworks(chains),
    }),
  ]
}
