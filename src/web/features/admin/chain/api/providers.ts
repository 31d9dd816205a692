import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ChainsAnswer } from '../../../../../shared/chain-overview'
import type { ProvidersAnswer, ProviderTestAnswer } from '../../../../../shared/providers'
import { callRpc } from '../../../../lib/rpc-client'

// The chain providers' health (refreshed while the page is open) and the operator's test of one.

export const providerKeys = { all: ['admin', 'providers'] as const }

export function useProviders() {
  return useQuery({
    queryKey: providerKeys.all,
    queryFn: () => callRpc<ProvidersAnswer>('secure_fetch_providers', {}, { idempotent: true }),
    refetchInterval: 10_000,
  })
}

export function useTestProvider() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (name: string) => callRpc<ProviderTestAnswer>('secure_test_provider', { p_name: name }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: providerKeys.all }),
  })
}

export const chainsKeys = { all: ['admin', 'chains'] as const }

/** Every enabled chain's providers, final head, recorded height, lag and requests (refreshed while open). */
export function useChains() {
  return useQuery({
    queryKey: chainsKeys.all,
    queryFn: () => callRpc<ChainsAnswer>('secure_fetch_chains', {}, { idempotent: true }),
    refetchInterval: 10_000,
  })
}
