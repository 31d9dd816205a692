import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { adminMessages, MIN_PASSWORD_LENGTH } from '../../../shared/admin'
import { Button } from '../../components/ui/button'
import { RpcError } from '../../lib/rpc-client'
import { toast } from '../../lib/toast'
import { adminApi, adminKeys } from './api/admin-api'
import { Field, Panel, TextInput } from './components/fields'
import { TwoFactorPanel } from './two-factor/two-factor-panel'

const empty = { currentPassword: '', newUsername: '', newPassword: '', confirmPassword: '' }

export function SecurityTab() {
  const queryClient = useQueryClient()
  const [form, setForm] = useState(empty)
  const update = useMutation({
    mutationFn: adminApi.updateCredentials,
    onSuccess: async (answer) => {
      if (!answer.success) {
        toast.error(answer.error || adminMessages.credentialsFailed)
        return
      }
      toast.success(adminMessages.credentialsUpdated, { duration: 2000 })
      setForm(empty)
      await queryClient.invalidateQueries({ queryKey: adminKeys.session })
    },
    onError: (err) => {
      // A lost session goes to the login page; a network failure has shown its toast.
      if (!(err instanceof RpcError && (err.status === 401 || err.network)))
        toast.error(adminMessages.credentialsFailed)
    },
  })
  const busy = update.isPending
  const set = (key: keyof typeof empty) => (e: { target: { value: string } }) =>
    setForm({ ...form, [key]: e.target.value })

  function submit(event: FormEvent) {
    event.preventDefault()
    if (busy) return
    if (Object.values(form).some((v) => v.trim() === '')) return
    if (form.newPassword !== form.confirmPassword) {
      toast.error(adminMessages.passwordsDoNotMatch)
      return
    }
    if (form.newPassword.length < MIN_PASSWORD_LENGTH) {
      toast.error(`The new password must be at least ${MIN_PASSWORD_LENGTH} characters`)
      return
    }
    update.mutate(form)
  }

  return (
    <div className="grid gap-6">
      <Panel title="Change Credentials">
        <form onSubmit={submit} className="grid max-w-xl gap-4">
          <Field label="Current Password">
            <TextInput
              type="password"
              autoComplete="current-password"
              required
              value={form.currentPassword}
              onChange={set('currentPassword')}
            />
          </Field>
          <Field label="New Username">
            <TextInput
              autoComplete="username"
              required
              value={form.newUsername}
              onChange={set('newUsername')}
            />
          </Field>
          <Field label="New Password" hint={`At least ${MIN_PASSWORD_LENGTH} characters`}>
            <TextInput
              type="password"
              autoComplete="new-password"
              required
              value={form.newPassword}
              onChange={set('newPassword')}
            />
          </Field>
          <Field label="Confirm New Password">
            <TextInput
              type="password"
              autoComplete="new-password"
              required
              value={form.confirmPassword}
              onChange={set('confirmPassword')}
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
