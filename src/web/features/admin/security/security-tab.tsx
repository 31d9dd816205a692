import { credentialsFormSchema, MIN_PASSWORD_LENGTH } from '../../../../shared/admin'
import { Button } from '../../../components/ui/button'
import { useT } from '../../../i18n/i18n'
import { useSchemaForm } from '../../../lib/form'
import { toast } from '../../../lib/toast'
import { Field, Panel, TextInput } from '../components/fields'
import { TwoFactorPanel } from '../two-factor/two-factor-panel'
import { useUpdateCredentials } from './api/credentials'

const empty = { p_current_password: '', p_new_username: '', p_new_password: '', p_confirm_password: '' }

export function SecurityTab() {
  const t = useT()
  const labels = {
    p_current_password: t('admin.security.current'),
    p_new_username: t('admin.security.newUsername'),
    p_new_password: t('admin.security.newPassword'),
    p_confirm_password: t('admin.security.confirm'),
  }
  const tooShort = t('admin.security.tooShort', { min: MIN_PASSWORD_LENGTH })
  const mismatch = t('admin.security.mismatch')
  const update = useUpdateCredentials()
  const busy = update.isPending
  const form = useSchemaForm({
    schema: credentialsFormSchema,
    initial: empty,
    labels,
    errors: { p_new_password: { too_small: tooShort } },
    onValid: (c) => {
      if (busy) return
      update.mutate(
        {
          currentPassword: c.p_current_password,
          newUsername: c.p_new_username,
          newPassword: c.p_new_password,
          confirmPassword: c.p_confirm_password ?? '',
        },
        { onSuccess: () => form.reset(empty) },
      )
    },
    // The shop's toasts for these two, beside the errors at the fields.
    onInvalid: (errors) => {
      if (errors.p_confirm_password === mismatch) toast.error(mismatch)
      else if (errors.p_new_password === tooShort) toast.error(tooShort)
    },
  })

  return (
    <div className="grid gap-6">
      <Panel title={t('admin.security.title')}>
        <form {...form.formProps} className="grid max-w-xl gap-4">
          <Field label={labels.p_current_password} error={form.errors.p_current_password}>
            <TextInput
              type="password"
              autoComplete="current-password"
              required
              {...form.field('p_current_password')}
            />
          </Field>
          <Field label={labels.p_new_username} error={form.errors.p_new_username}>
            <TextInput autoComplete="username" required {...form.field('p_new_username')} />
          </Field>
          <Field
            label={labels.p_new_password}
            error={form.errors.p_new_password}
            hint={t('admin.security.hint', { min: MIN_PASSWORD_LENGTH })}
          >
            <TextInput
              type="password"
              autoComplete="new-password"
              required
              {...form.field('p_new_password')}
            />
          </Field>
          <Field label={labels.p_confirm_password} error={form.errors.p_confirm_password}>
            <TextInput
              type="password"
              autoComplete="new-password"
              required
              {...form.field('p_confirm_password')}
            />
          </Field>
          <div>
            <Button type="submit" disabled={busy}>
              {busy ? t('admin.security.updating') : t('admin.security.submit')}
            </Button>
          </div>
        </form>
      </Panel>
      <TwoFactorPanel />
    </div>
  )
}
