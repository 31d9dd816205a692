import { useMutation, useQuery } from '@tanstack/react-query'
import type { ReconcileAnswer } from '../../../../../shared/reconcile'
import { callRpc } from '../../../../lib/rpc-client'

// Reconciliation: the ledger view for a period, and one address checked against the chain.

export interface ReconcilePeriod {
  from: string
  to: string
}

export const reconcileKeys = {
  all: ['admin', 'reconcile'] as const,
  period: (period: ReconcilePeriod) => ['admin', 'reconcile', period] as const,
}

const fetchReconcile = (period: ReconcilePeriod, chainAddress?: string) =>
  callRpc<ReconcileAnswer>(
    'secure_reconcile',
    { p_from: period.from, p_to: period.to, ...(chainAddress ? { p_chain_address: chainAddress } : {}) },
    { idempotent: true },
  )

export function useReconcile(period: ReconcilePeriod) {
  return useQuery({ queryKey: reconcileKeys.period(period), queryFn: () => fetchReconcile(period) })
}

export function useChainCheck(period: ReconcilePeriod) {
  // A read on request: the panel says beside the button when the chain could not be asked.
  return useMutation({
    mutationFn: (address: string) => fetchReconcile(period, address),
    meta: { toast: false },
  })
}
