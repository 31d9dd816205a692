import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { QRCodeSVG } from 'qrcode.react'
import { useState } from 'react'
import {
  confirmTwoFactorInputSchema,
  disableTwoFactorInputSchema,
  twoFactorMessages,
} from '../../../../shared/two-factor'
import { Button } from '../../../components/ui/button'
import { CopyField } from '../../../components/ui/copy-field'
import { type SchemaForm, useSchemaForm } from '../../../lib/form'
import { toast } from '../../../lib/toast'
import { twoFactorApi, twoFactorKeys } from '../api/two-factor-api'
import { Field, Panel, TextInput } from '../components/fields'

type Setup = { secret: string; uri: string }

/** Switching two-factor login on or off asks for the current password: one field for both forms. */
function PasswordField({
  form,
  hint,
}: {
  form: SchemaForm<{ p_password: string; p_code: string }>
  hint?: string
}) {
  return (
    <Field label="Current Password" hint={hint} error={form.errors.p_password}>
      <TextInput
        type="password"
        autoComplete="current-password"
        required
        value={form.values.p_password}
        onChange={(e) => form.set('p_password', e.target.value)}
      />
    </Field>
  )
}

/** Security tab: switch two-factor login (TOTP) on with a QR code and a code, or off again. */
export function TwoFactorPanel() {
  const queryClient = useQueryClient()
  const status = useQuery({ queryKey: twoFactorKeys.status, queryFn: twoFactorApi.status })
  const [setup, setSetup] = useState<Setup | null>(null)
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null)
  const refresh = () => queryClient.invalidateQueries({ queryKey: twoFactorKeys.status })

  const begin = useMutation({
    mutationFn: twoFactorApi.begin,
    onSuccess: (answer) => {
      if (answer.success) setSetup({ secret: answer.secret, uri: answer.otpauth_uri })
      else toast.error(answer.error)
    },
  })
  const enable = useMutation({
    mutationFn: (input: { password: string; code: string }) =>
      twoFactorApi.enable(input.password, input.code),
    onSuccess: async (answer) => {
      if (!answer.success) return void toast.error(answer.error)
      setRecoveryCodes(answer.recovery_codes)
      setSetup(null)
      confirmForm.reset({ p_password: '', p_code: '' })
      toast.success(twoFactorMessages.enabled)
      await refresh()
    },
  })
  const disable = useMutation({
    mutationFn: (input: { password: string; code: string }) =>
      twoFactorApi.disable(input.password, input.code),
    onSuccess: async (answer) => {
      if (!answer.success) return void toast.error(answer.error)
      disableForm.reset({ p_password: '', p_code: '' })
      setRecoveryCodes(null)
      toast.success(twoFactorMessages.disabled)
      await refresh()
    },
  })

  const confirmForm = useSchemaForm({
    schema: confirmTwoFactorInputSchema,
    initial: { p_password: '', p_code: '' },
    labels: { p_password: 'Current Password' },
    message: (issue, field) =>
      field === 'p_code' && issue.code === 'too_small' ? twoFactorMessages.codeRequired : undefined,
    onValid: ({ p_password, p_code }) => {
      if (!enable.isPending) enable.mutate({ password: p_password, code: p_code })
    },
  })
  const disableForm = useSchemaForm({
    schema: disableTwoFactorInputSchema,
    initial: { p_password: '', p_code: '' },
    labels: { p_password: 'Current Password', p_code: 'Authentication Code' },
    onValid: ({ p_password, p_code }) => {
      if (!disable.isPending) disable.mutate({ password: p_password, code: p_code })
    },
  })

  if (!status.data) {
    return (
      <Panel title="Two-Factor Login">
        <p role="status" className="text-sm text-muted">
          {status.isError ? 'Could not load the two-factor state.' : 'Loading...'}
        </p>
      </Panel>
    )
  }

  return (
    <Panel title="Two-Factor Login">
      {recoveryCodes && (
        <div className="mb-6 rounded-xl border border-amber-500/40 bg-amber-500/10 p-4">
          <h3 className="font-semibold text-fg">Recovery codes</h3>
          <p className="mt-1 text-sm text-muted">
            Each code logs in once without the app. They are shown only now: keep them somewhere safe.
          </p>
          <ul aria-label="Recovery codes" className="mt-3 grid grid-cols-2 gap-2 font-mono text-sm text-fg">
            {recoveryCodes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <Button variant="secondary" className="mt-3" onClick={() => setRecoveryCodes(null)}>
            I have saved them
          </Button>
        </div>
      )}

      {status.data.enabled ? (
        <form {...disableForm.formProps} className="grid max-w-xl gap-4">
          <p className="text-sm text-fg">
            Two-factor login is <strong>on</strong>. {status.data.recovery_codes_left} recovery code(s) left.
          </p>
          <PasswordField form={disableForm} />
          <Field
            label="Authentication Code"
            hint="From your authenticator app, or a recovery code"
            error={disableForm.errors.p_code}
          >
            <TextInput
              autoComplete="one-time-code"
              required
              value={disableForm.values.p_code}
              onChange={(e) => disableForm.set('p_code', e.target.value)}
            />
          </Field>
          <div>
            <Button type="submit" variant="danger" disabled={disable.isPending}>
              {disable.isPending ? 'Turning off...' : 'Turn Off Two-Factor Login'}
            </Button>
          </div>
        </form>
      ) : setup ? (
        <form {...confirmForm.formProps} className="grid max-w-xl gap-4">
          <p className="text-sm text-muted">
            Scan the code with an authenticator app (or enter the key by hand), then enter your current
            password and the 6-digit code the app shows.
          </p>
          <div className="w-fit rounded-xl bg-white p-3">
            <QRCodeSVG value={setup.uri} size={176} title="Two-factor setup QR code" />
          </div>
          <CopyField
            label="Setup key"
            value={setup.secret}
            copiedMessage="Setup key copied"
            failedMessage="Could not copy the setup key"
          />
          <PasswordField form={confirmForm} hint="Switching two-factor login on changes how you log in" />
          <Field label="Code from the app" error={confirmForm.errors.p_code}>
            <TextInput
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              required
              value={confirmForm.values.p_code}
              onChange={(e) => confirmForm.set('p_code', e.target.value)}
            />
          </Field>
          <div className="flex gap-2">
            <Button type="submit" disabled={enable.isPending}>
              {enable.isPending ? 'Checking...' : 'Confirm and Turn On'}
            </Button>
            <Button variant="ghost" onClick={() => setSetup(null)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <div className="grid max-w-xl gap-4">
          <p className="text-sm text-muted">
            Two-factor login is off. With it on, login asks for a code from an authenticator app after the
            password.
          </p>
          <div>
            <Button onClick={() => begin.mutate()} disabled={begin.isPending}>
              Set Up Two-Factor Login
            </Button>
          </div>
        </div>
      )}
    </Panel>
  )
}
