import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useT } from '../../../../i18n/i18n'
import { toast } from '../../../../lib/toast'
import { adminKeys, write } from '../../api/admin-api'
import { accepted } from '../../api/admin-query-client'

// Changing the operator's username and password (the current password is asked for).

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
