import { useMutation, useQueryClient } from '@tanstack/react-query'
import { adminMessages, credentialsFormSchema, MIN_PASSWORD_LENGTH } from '../../../shared/admin'
import { Button } from '../../components/ui/button'
import { useSchemaForm } from '../../lib/form'
import { RpcError } from '../../lib/rpc-client'
import { toast } from '../../lib/toast'
import { adminApi, adminKeys } from './api/admin-api'
import { Field, Panel, TextInput } from './components/fields'
import { TwoFactorPanel } from './two-factor/two-factor-panel'

const empty = { p_current_password: '', p_new_username: '', p_new_password: '', p_confirm_password: '' }
const labels = {
  p_current_password: 'Current Password',
  p_new_username: 'New Username',
  p_new_password: 'New Password',
  p_confirm_password: 'Confirm New Password',
}
const tooShort = `The new password must be at least ${MIN_PASSWORD_LENGTH} characters`

export function SecurityTab() {
  const queryClient = useQueryClient()
  const update = useMutation({
    mutationFn: adminApi.updateCredentials,
    onSuccess: async (answer) => {
      if (!answer.success) {
        toast.error(answer.error || adminMessages.credentialsFailed)
        return
      }
      toast.success(adminMessages.credentialsUpdated, { duration: 2000 })
      form.reset(empty)
      await queryClient.invalidateQueries({ queryKey: adminKeys.session })
    },
    onError: (err) => {
      // A lost session goes to the login page; a network failure has shown its toast.
      if (!(err instanceof RpcError && (err.status === 401 || err.network)))
        toast.error(adminMessages.credentialsFailed)
    },
  })
  const busy = update.isPending
  const form = useSchemaForm({
    schema: credentialsFormSchema,
    initial: empty,
    labels,
    message: (issue, field) =>
      field === 'p_new_password' && issue.code === 'too_small' ? tooShort : undefined,
    onValid: (c) => {
      if (busy) return
      update.mutate({
        currentPassword: c.p_current_password,
        newUsername: c.p_new_username,
        newPassword: c.p_new_password,
        confirmPassword: c.p_confirm_password ?? '',
      })
    },
    // The shop's toasts for these two, beside the errors at the fields.
    onInvalid: (errors) => {
      if (errors.p_confirm_password === adminMessages.passwordsDoNotMatch)
        toast.error(adminMessages.passwordsDoNotMatch)
      else if (errors.p_new_password === tooShort) toast.error(tooShort)
    },
  })
  const field = (name: keyof typeof empty) => ({
    value: form.values[name],
    onChange: (e: { target: { value: string } }) => form.set(name, e.target.value),
  })

  return (
    <div className="grid gap-6">
      <Panel title="Change Credentials">
        <form {...form.formProps} className="grid max-w-xl gap-4">
          <Field label="Current Password" error={form.errors.p_current_password}>
            <TextInput
              type="password"
              autoComplete="current-password"
              required
              {...field('p_current_password')}
            />
          </Field>
          <Field label="New Username" error={form.errors.p_new_username}>
            <TextInput autoComplete="username" required {...field('p_new_username')} />
          </Field>
          <Field
            label="New Password"
            error={form.errors.p_new_password}
            hint={`At least ${MIN_PASSWORD_LENGTH} characters`}
          >
            <TextInput type="password" autoComplete="new-password" required {...field('p_new_password')} />
          </Field>
          <Field label="Confirm New Password" error={form.errors.p_confirm_password}>
            <TextInput
              type="password"
              autoComplete="new-password"
              required
              {...field('p_confirm_password')}
            />
          </Field>
          <div>
            <Button type="submit" disabled={busy}>
              {busy ? 'Updating...' : 'Update Credentials'}
            </Button>
          </div>
        </form>
      </Panel>
      <TwoFactorPanel />
    </div>
  )
}
