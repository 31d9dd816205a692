import { useQuery } from '@tanstack/react-query'
import { type DashboardOrder, fetchDashboardAnswerSchema } from '../../../../shared/dashboard'
import { callRpc, RpcError } from '../../../lib/rpc-client'

export type DashboardResult =
  | { kind: 'found'; order: DashboardOrder }
  | { kind: 'not_found' | 'limited'; message: string }

export async function getDashboard(token: string): Promise<DashboardResult> {
  try {
    const answer = fetchDashboardAnswerSchema.parse(
      await callRpc('secure_fetch_dashboard', { p_access_token: token }, { idempotent: true, quiet: true }),
    )
    return answer.success
      ? { kind: 'found', order: answer.order }
      : { kind: 'not_found', message: answer.error }
  } catch (error) {
    if (error instanceof RpcError && error.status === 429) return { kind: 'limited', message: error.message }
    throw error
  }
}

export const dashboardKeys = { order: (token: string) => ['dashboard', token] as const }

export function useDashboard(token: string) {
  return useQuery({
    queryKey: dashboardKeys.order(token),
    queryFn: () => getDashboard(token),
    staleTime: 60_000,
  })
}
