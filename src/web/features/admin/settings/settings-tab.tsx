import {
  type AdminSettings,
  type AlertKind,
  alertKinds,
  updateSettingsInputSchema,
} from '../../../../shared/settings'
import { Button } from '../../../components/ui/button'
import { useFormat, useT } from '../../../i18n/i18n'
import { useSchemaForm } from '../../../lib/form'
import { Field, Panel, TextInput } from '../components/fields'
import { useSaveSettings, useSettings } from './api/settings'

interface Form {
  operatorEmail: string
  chatId: string
  /** Typed here to set or replace the saved token; empty keeps it. */
  newToken: string
  removeToken: boolean
  alerts: Record<AlertKind, boolean>
  lowStock: string
  refuseWhileDelayed: boolean
}

const formOf = (s: AdminSettings): Form => ({
  operatorEmail: s.operator_email ?? '',
  chatId: s.telegram_chat_id ?? '',
  newToken: '',
  removeToken: false,
  alerts: { ...s.alerts },
  lowStock: String(s.low_stock_threshold),
  refuseWhileDelayed: s.refuse_checkouts_while_delayed,
})

/** What the server's settings call checks, from the form. */
const settingsOf = (form: Form) => ({
  operator_email: form.operatorEmail.trim() || null,
  telegram_chat_id: form.chatId.trim() || null,
  telegram_bot_token: form.removeToken ? '' : form.newToken.trim() || undefined,
  alerts: form.alerts,
  low_stock_threshold: form.lowStock.trim() === '' ? 0 : Number(form.lowStock),
  refuse_checkouts_while_delayed: form.refuseWhileDelayed,
})

/** The form field each of the call's fields comes from. */
const fieldOfSetting: Record<string, keyof Form> = {
  operator_email: 'operatorEmail',
  telegram_chat_id: 'chatId',
  telegram_bot_token: 'newToken',
  alerts: 'alerts',
  low_stock_threshold: 'lowStock',
  refuse_checkouts_while_delayed: 'refuseWhileDelayed',
}

/** Operator e-mail, Telegram, which alerts to send, low-stock threshold; kept in the database. */
export function SettingsTab() {
  const t = useT()
  const settings = useSettings()
  if (!settings.data) {
    return (
      <p role="status" className="py-16 text-center text-muted">
        {settings.isError ? t('admin.settings.loadFailed') : t('admin.loading')}
      </p>
    )
  }
  return <SettingsForm saved={settings.data.settings} />
}

function SettingsForm({ saved }: { saved: AdminSettings }) {
  const t = useT()
  const { usd } = useFormat()
  const labels = {
    operatorEmail: t('admin.settings.email'),
    chatId: t('admin.settings.chatId'),
    newToken: t('admin.settings.token'),
    lowStock: t('admin.settings.lowStock'),
  }
  const save = useSaveSettings()
  const form = useSchemaForm({
    schema: updateSettingsInputSchema.shape.p_settings,
    initial: () => formOf(saved),
    toInput: settingsOf,
    fieldOf: (path) => fieldOfSetting[String(path[0])] ?? String(path[0]),
    labels,
    onValid: (input) => {
      if (!save.isPending) save.mutate(input, { onSuccess: (answer) => form.reset(formOf(answer.settings)) })
    },
  })
  const { values, errors } = form

  return (
    <form {...form.formProps} className="grid gap-6">
      <Panel title={t('admin.settings.notifications')}>
        <div className="grid max-w-xl gap-4">
          <Field
            label={labels.operatorEmail}
            error={errors.operatorEmail}
            hint={t('admin.settings.emailHint')}
          >
            <TextInput type="email" {...form.field('operatorEmail')} />
          </Field>
          <Field
            label={labels.newToken}
            error={errors.newToken}
            hint={
              saved.telegram_bot_token_set ? t('admin.settings.tokenSaved') : t('admin.settings.tokenHint')
            }
          >
            <TextInput
              type="password"
              autoComplete="off"
              placeholder={saved.telegram_bot_token_set ? t('admin.settings.tokenPlaceholder') : ''}
              disabled={values.removeToken}
              {...form.field('newToken')}
            />
          </Field>
          {saved.telegram_bot_token_set && (
            <label className="flex items-center gap-2 text-sm text-fg">
              <input type="checkbox" {...form.checkbox('removeToken')} />
              {t('admin.settings.removeToken')}
            </label>
          )}
          <Field label={labels.chatId} hint={t('admin.settings.chatHint')} error={errors.chatId}>
            <TextInput {...form.field('chatId')} />
          </Field>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium text-fg">{t('admin.settings.alertWhen')}</legend>
            {alertKinds.map((kind) => (
              <label key={kind} className="flex items-center gap-2 text-sm text-fg">
                <input type="checkbox" {...form.checkbox(`alerts.${kind}`)} />
                {t(`admin.settings.alert.${kind}`)}
              </label>
            ))}
            <span className="text-xs text-muted">{t('admin.settings.alertOnce')}</span>
          </fieldset>
        </div>
      </Panel>
      <Panel title={t('admin.settings.stockPayments')}>
        <div className="grid max-w-xl gap-4">
          <Field label={labels.lowStock} error={errors.lowStock} hint={t('admin.settings.lowStockHint')}>
            <TextInput type="number" min={0} max={100000} {...form.field('lowStock')} />
          </Field>
          <label className="flex items-start gap-2 text-sm text-fg">
            <input type="checkbox" className="mt-1" {...form.checkbox('refuseWhileDelayed')} />
            <span>
              {t('admin.settings.refuseWhileDelayed')}
              <span className="block text-xs text-muted">{t('admin.settings.refuseWhileDelayedHint')}</span>
            </span>
          </label>
          <Field label={t('admin.settings.tolerance')} hint={t('admin.settings.toleranceHint')}>
            <TextInput
              readOnly
              value={
                saved.payment_tolerance_percent !== null
                  ? t('admin.settings.tolerancePercent', {
                      usd: usd(saved.payment_tolerance_usd),
                      percent: saved.payment_tolerance_percent,
                    })
                  : usd(saved.payment_tolerance_usd)
              }
            />
          </Field>
        </div>
      </Panel>
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? t('admin.saving') : t('admin.settings.save')}
        </Button>
      </div>
    </form>
  )
}
