import { useQuery } from '@tanstack/react-query'
import { type PaymentNetwork, paymentNetworksAnswerSchema } from '../../../../shared/networks'
import { callRpc } from '../../../lib/rpc-client'

// The networks and tokens this shop takes: the checkout's choice. Asked once a visit; a failed
// answer leaves TRON alone, as a shop that takes nothing else has it.

export const networksKeys = { all: ['payment-networks'] as const }

const TRON_ONLY: PaymentNetwork[] = [
  { chain: 'tron', family: 'tron', tokens: [{ symbol: 'USDT', decimals: 6 }], confirmations: null },
]

export function usePaymentNetworks(): PaymentNetwork[] {
  const query = useQuery({
    queryKey: networksKeys.all,
    queryFn: async () => {
      const answer = paymentNetworksAnswerSchema.safeParse(
        await callRpc('secure_get_payment_networks', {}, { idempotent: true, quiet: true }),
      )
      return answer.success && answer.data.networks.length > 0 ? answer.data.networks : TRON_ONLY
    },
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: false,
    retry: false,
  })
  return query.data ?? TRON_ONLY
}
