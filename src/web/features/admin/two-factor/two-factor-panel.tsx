import { QRCodeSVG } from 'qrcode.react'
import { useState } from 'react'
import {
  confirmTwoFactorInputSchema,
  disableTwoFactorInputSchema,
  twoFactorMessages,
} from '../../../../shared/two-factor'
import { Button } from '../../../components/ui/button'
import { CopyField } from '../../../components/ui/copy-field'
import { type MessageId, Msg, type Translate, useT } from '../../../i18n/i18n'
import { type SchemaForm, useSchemaForm } from '../../../lib/form'
import { toast } from '../../../lib/toast'
import { Field, Panel, TextInput } from '../components/fields'
import { useTwoFactorStatus, useTwoFactorWrites } from './api/two-factor'

type Setup = { secret: string; uri: string }

const serverTexts: Record<string, MessageId> = {
  [twoFactorMessages.codeRequired]: 'admin.twoFactor.codeRequired',
  [twoFactorMessages.invalidCode]: 'admin.twoFactor.invalidCode',
  [twoFactorMessages.disabled]: 'admin.twoFactor.disabled',
  [twoFactorMessages.noSetup]: 'admin.twoFactor.noSetup',
  [twoFactorMessages.alreadyEnabled]: 'admin.twoFactor.alreadyEnabled',
}

/** The server's two-factor answers in the admin's language; any other text as the server wrote it. */
const serverText = (t: Translate, text: string) => (serverTexts[text] ? t(serverTexts[text]) : text)

/** Switching two-factor login on or off asks for the current password: one field for both forms. */
function PasswordField({
  form,
  hint,
}: {
  form: SchemaForm<{ p_password: string; p_code: string }>
  hint?: string
}) {
  const t = useT()
  return (
    <Field label={t('admin.security.current')} hint={hint} error={form.errors.p_password}>
      <TextInput type="password" autoComplete="current-password" required {...form.field('p_password')} />
    </Field>
  )
}

/** Security tab: switch two-factor login (TOTP) on with a QR code and a code, or off again. */
export function TwoFactorPanel() {
  const t = useT()
  const status = useTwoFactorStatus()
  const [setup, setSetup] = useState<Setup | null>(null)
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null)
  const { begin, enable, disable } = useTwoFactorWrites((text) => serverText(t, text))
  const start = () =>
    begin.mutate(undefined, {
      onSuccess: (answer) => setSetup({ secret: answer.secret, uri: answer.otpauth_uri }),
    })
  const switchOn = (input: { password: string; code: string }) =>
    enable.mutate(input, {
      onSuccess: (answer) => {
        setRecoveryCodes(answer.recovery_codes)
        setSetup(null)
        confirmForm.reset({ p_password: '', p_code: '' })
        toast.success(t('admin.twoFactor.enabled'))
      },
    })
  const switchOff = (input: { password: string; code: string }) =>
    disable.mutate(input, {
      onSuccess: () => {
        disableForm.reset({ p_password: '', p_code: '' })
        setRecoveryCodes(null)
        toast.success(t('admin.twoFactor.disabled'))
      },
    })

  const confirmForm = useSchemaForm({
    schema: confirmTwoFactorInputSchema,
    initial: { p_password: '', p_code: '' },
    labels: { p_password: t('admin.security.current') },
    errors: { p_code: { too_small: t('admin.twoFactor.codeRequired') } },
    onValid: ({ p_password, p_code }) => {
      if (!enable.isPending) switchOn({ password: p_password, code: p_code })
    },
  })
  const disableForm = useSchemaForm({
    schema: disableTwoFactorInputSchema,
    initial: { p_password: '', p_code: '' },
    labels: { p_password: t('admin.security.current'), p_code: t('admin.twoFactor.code') },
    onValid: ({ p_password, p_code }) => {
      if (!disable.isPending) switchOff({ password: p_password, code: p_code })
    },
  })

  if (!status.data) {
    return (
      <Panel title={t('admin.twoFactor.title')}>
        <p role="status" className="text-sm text-muted">
          {status.isError ? t('admin.twoFactor.loadFailed') : t('admin.loading')}
        </p>
      </Panel>
    )
  }

  return (
    <Panel title={t('admin.twoFactor.title')}>
      {recoveryCodes && (
        <div className="mb-6 rounded-xl border border-amber-500/40 bg-amber-500/10 p-4">
          <h3 className="font-semibold text-fg">{t('admin.twoFactor.recoveryTitle')}</h3>
          <p className="mt-1 text-sm text-muted">{t('admin.twoFactor.recoveryHint')}</p>
          <ul
            aria-label={t('admin.twoFactor.recoveryTitle')}
            className="mt-3 grid grid-cols-2 gap-2 font-mono text-sm text-fg"
          >
            {recoveryCodes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <Button variant="secondary" className="mt-3" onClick={() => setRecoveryCodes(null)}>
            {t('admin.twoFactor.saved')}
          </Button>
        </div>
      )}

      {status.data.enabled ? (
        <form {...disableForm.formProps} className="grid max-w-xl gap-4">
          <p className="text-sm text-fg">
            <Msg
              id="admin.twoFactor.on"
              values={{ count: status.data.recovery_codes_left }}
              components={{ 0: <strong /> }}
            />
          </p>
          <PasswordField form={disableForm} />
          <Field
            label={t('admin.twoFactor.code')}
            hint={t('admin.twoFactor.codeHint')}
            error={disableForm.errors.p_code}
          >
            <TextInput autoComplete="one-time-code" required {...disableForm.field('p_code')} />
          </Field>
          <div>
            <Button type="submit" variant="danger" disabled={disable.isPending}>
              {disable.isPending ? t('admin.twoFactor.turningOff') : t('admin.twoFactor.turnOff')}
            </Button>
          </div>
        </form>
      ) : setup ? (
        <form {...confirmForm.formProps} className="grid max-w-xl gap-4">
          <p className="text-sm text-muted">{t('admin.twoFactor.scan')}</p>
          <div className="w-fit rounded-xl bg-white p-3">
            <QRCodeSVG value={setup.uri} size={176} title={t('admin.twoFactor.qrTitle')} />
          </div>
          <CopyField
            label={t('admin.twoFactor.setupKey')}
            value={setup.secret}
            copiedMessage={t('admin.twoFactor.setupKeyCopied')}
            failedMessage={t('admin.twoFactor.setupKeyCopyFailed')}
          />
          <PasswordField form={confirmForm} hint={t('admin.twoFactor.onHint')} />
          <Field label={t('admin.twoFactor.appCode')} error={confirmForm.errors.p_code}>
            <TextInput
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              required
              {...confirmForm.field('p_code')}
            />
          </Field>
          <div className="flex gap-2">
            <Button type="submit" disabled={enable.isPending}>
              {enable.isPending ? t('admin.twoFactor.checking') : t('admin.twoFactor.confirm')}
            </Button>
            <Button variant="ghost" onClick={() => setSetup(null)}>
              {t('admin.cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <div className="grid max-w-xl gap-4">
          <p className="text-sm text-muted">{t('admin.twoFactor.off')}</p>
          <div>
            <Button onClick={start} disabled={begin.isPending}>
              {t('admin.twoFactor.setUp')}
            </Button>
          </div>
        </div>
      )}
    </Panel>
  )
}
