import { useMutation, useQueryClient } from '@tanstack/react-query'
import { adminKeys, type Outcome, write } from '../../api/admin-api'

export type LoginAnswer = Outcome & { username?: string; two_factor_required?: boolean }

/**
 * Logging in. A wrong password or a missing second factor is an answer the form handles, not a
 * failure; the panel then reads the session set here instead of asking again.
 */
export function useLogin() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: { username: string; password: string; code?: string }) =>
      write<LoginAnswer>('secure_admin_login', {
        p_username: input.username,
        p_password: input.password,
        p_code: input.code || undefined,
      }),
    meta: { failure: 'admin.loginFailed', toast: { id: 'login-error' } },
    onSuccess: (answer) => {
      if (answer.success)
        queryClient.setQueryData(adminKeys.session, { success: true, username: answer.username ?? '' })
    },
  })
}
