import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import type { ChainId } from '../../../../../shared/chains'
import { firstChain } from '../../../../../shared/chains'
import type { ReconcileAnswer } from '../../../../../shared/reconcile'
import { callRpc } from '../../../../lib/rpc-client'

// Reconciliation of one chain: the ledger view for a period, and one address checked against the chain.

export interface ReconcilePeriod {
  from: string
  to: string
  /** The chain reconciled; TRON when the shop takes no other. */
  chain: ChainId
}

export const reconcileKeys = {
  all: ['admin', 'reconcile'] as const,
  period: (period: ReconcilePeriod) => ['admin', 'reconcile', period] as const,
}

const fetchReconcile = (period: ReconcilePeriod, chainAddress?: string) =>
  callRpc<ReconcileAnswer>(
    'secure_reconcile',
    {
      p_from: period.from,
      p_to: period.to,
      // TRON is the default: a TRON-only shop asks exactly as before.
      ...(period.chain === firstChain ? {} : { p_chain: period.chain }),
      ...(chainAddress ? { p_chain_address: chainAddress } : {}),
    },
    { idempotent: true },
  )

export function useReconcile(period: ReconcilePeriod) {
  // The previous answer stays while another chain or period loads (the network choice stays shown).
  return useQuery({
    queryKey: reconcileKeys.period(period),
    queryFn: () => fetchReconcile(period),
    placeholderData: keepPreviousData,
  })
}

export function useChainCheck(period: ReconcilePeriod) {
  // A read on request: the panel says beside the button when the chain could not be asked.
  return useMutation({
    mutationFn: (address: string) => fetchReconcile(period, address),
    meta: { toast: false },
  })
}
