import { useMutation, useQueryClient } from '@tanstack/react-query'
import { callRpc } from '../../../lib/rpc-client'
import { dashboardKeys } from './get-dashboard'

// The buyer frees one seat of a key (an activation on a machine) from the dashboard; the order's
// dashboard is read again, so the list and the count show the freed seat.

type Answer = { success: true } | { success: false; error: string }

export function useDeactivateSeat(token: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (instanceId: string) => {
      const answer = await callRpc<Answer>('secure_deactivate_seat', {
        p_access_token: token,
        p_instance_id: instanceId,
      })
      if (!answer.success) throw new Error(answer.error)
      return answer
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: dashboardKeys.order(token) }),
  })
}
