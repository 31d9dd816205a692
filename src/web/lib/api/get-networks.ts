import { useQuery } from '@tanstack/react-query'
import { firstChain, firstFamily } from '../../../shared/chains'
import { networkOptions, optionLabel, type PaymentNetwork, paymentNetworksOf } from '../../../shared/networks'
import { callRpc } from '../rpc-client'

// The networks and tokens this shop takes: the checkout's choice, and what the storefront says it
// accepts. The server puts them beside a server-rendered page (entry-server.tsx, main.tsx); otherwise
// they are asked once a visit. A failed answer leaves the first chain's USDT alone (TRON's), as a
// shop that takes nothing else has it. The storefront's first load carries no schema library: the
// answer is checked by hand (paymentNetworksOf, held to the schema by its test).

export const networksKeys = { all: ['payment-networks'] as const }

export const FIRST_CHAIN_ONLY: PaymentNetwork[] = [
  { chain: firstChain, family: firstFamily, tokens: [{ symbol: 'USDT', decimals: 6 }], confirmations: null },
]

export function usePaymentNetworks(): PaymentNetwork[] {
  const query = useQuery({
    queryKey: networksKeys.all,
    queryFn: async () => {
      const networks = paymentNetworksOf(
        await callRpc('secure_get_payment_networks', {}, { idempotent: true, quiet: true }),
      )
      return networks && networks.length > 0 ? networks : FIRST_CHAIN_ONLY
    },
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: false,
    retry: false,
  })
  return query.data ?? FIRST_CHAIN_ONLY
}

/**
 * What the storefront says it accepts. With TRON alone, null: the pages keep their words
 * ("USDT-TRC20/TRX"). With more, the stablecoins ("USDT/USDC"), how many networks take them, and
 * each choice by name ("USDT · TRON, USDT · BNB Smart Chain, USDC · Base").
 */
export function useAcceptedNetworks(): { tokens: string; count: number; networks: string } | null {
  const networks = usePaymentNetworks()
  const options = networkOptions(networks)
  if (networks.length < 2) return null
  return {
    tokens: [...new Set(options.map((o) => o.token))].join('/'),
    count: networks.length,
    networks: options.map(optionLabel).join(', '),
  }
}
