import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { TwoFactorSetup, TwoFactorStatus } from '../../../../../shared/two-factor'
import { callRpc } from '../../../../lib/rpc-client'
import { Refused } from '../../api/admin-query-client'

type Refusal = { success: false; error: string }

export const twoFactorApi = {
  status: () => callRpc<TwoFactorStatus>('secure_admin_2fa_status', {}, { idempotent: true }),
  begin: () => callRpc<TwoFactorSetup | Refusal>('secure_admin_2fa_begin', {}),
  enable: (password: string, code: string) =>
    callRpc<{ success: true; recovery_codes: string[] } | Refusal>('secure_admin_2fa_enable', {
      p_password: password,
      p_code: code,
    }),
  disable: (password: string, code: string) =>
    callRpc<{ success: true } | Refusal>('secure_admin_2fa_disable', { p_password: password, p_code: code }),
}

export const twoFactorKeys = { status: ['admin', 'two-factor'] as const }

export function useTwoFactorStatus() {
  return useQuery({ queryKey: twoFactorKeys.status, queryFn: twoFactorApi.status })
}

/**
 * Two-factor writes. The server's refusals come back translated (`say`: its English rules in the
 * operator's language) and are told by the admin client's error toast, like any failure.
 */
export function useTwoFactorWrites(say: (text: string) => string) {
  const queryClient = useQueryClient()
  const refresh = () => queryClient.invalidateQueries({ queryKey: twoFactorKeys.status })
  const accept = <T extends { success: boolean }>(answer: T) => {
    if (!answer.success) throw new Refused(say((answer as { error?: string }).error ?? ''))
    return answer as Exclude<T, { success: false }>
  }
  const begin = useMutation({ mutationFn: async () => accept(await twoFactorApi.begin()) })
  const enable = useMutation({
    mutationFn: async (input: { password: string; code: string }) =>
      accept(await twoFactorApi.enable(input.password, input.code)),
    onSuccess: refresh,
  })
  const disable = useMutation({
    mutationFn: async (input: { password: string; code: string }) =>
      accept(await twoFactorApi.disable(input.password, input.code)),
    onSuccess: refresh,
  })
  return { begin, enable, disable }
}
