import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useT } from '../../../../i18n/i18n'
import { callRpc } from '../../../../lib/rpc-client'
import { toast } from '../../../../lib/toast'
import { adminKeys, type Outcome, write } from '../../api/admin-api'
import { accepted } from '../../api/admin-query-client'

// The operator's session: whether this browser is logged in (and may use the panel at all),
// logging in and out, and changing the credentials.

export type LoginAnswer = Outcome & { username?: string; two_factor_required?: boolean }

const fetchSession = () =>
  callRpc<{ success: true; username: string }>('secure_admin_session', {}, { quiet: true })

/** The layout reads it once (a 401 later ends it); the login page asks it on every visit. */
export function useAdminSession({ once = false }: { once?: boolean } = {}) {
  return useQuery({
    queryKey: adminKeys.session,
    queryFn: fetchSession,
    ...(once ? { staleTime: Number.POSITIVE_INFINITY } : {}),
  })
}

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

/** Logging out ends the session on the server; the panel forgets everything it read either way. */
export async function logout() {
  try {
    await write('secure_admin_logout')
  } catch {}
}

export interface CredentialsInput {
  currentPassword: string
  newUsername: string
  newPassword: string
  confirmPassword: string
}

export function useUpdateCredentials() {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: CredentialsInput) =>
      accepted(
        await write('secure_update_admin_credentials', {
          p_current_password: input.currentPassword,
          p_new_username: input.newUsername,
          p_new_password: input.newPassword,
          p_confirm_password: input.confirmPassword,
        }),
      ),
    meta: { failure: 'admin.security.failed' },
    onSuccess: async () => {
      toast.success(t('admin.security.updated'), { duration: 2000 })
      await queryClient.invalidateQueries({ queryKey: adminKeys.session })
    },
  })
}
