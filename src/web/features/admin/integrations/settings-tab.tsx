import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  type AdminSettings,
  type AlertKind,
  alertKindLabels,
  alertKinds,
  updateSettingsInputSchema,
} from '../../../../shared/settings'
import { Button } from '../../../components/ui/button'
import { useSchemaForm } from '../../../lib/form'
import { toast } from '../../../lib/toast'
import { integrationsApi, integrationsKeys } from '../api/integrations-api'
import { Field, Panel, TextInput } from '../components/fields'

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

const labels = {
  operatorEmail: 'Operator e-mail',
  chatId: 'Telegram chat id',
  newToken: 'Telegram bot token',
  lowStock: 'Low-stock threshold',
}

/** Operator e-mail, Telegram, which alerts to send, low-stock threshold; kept in the database. */
export function SettingsTab() {
  const settings = useQuery({ queryKey: integrationsKeys.settings, queryFn: integrationsApi.settings })
  if (!settings.data) {
    return (
      <p role="status" className="py-16 text-center text-muted">
        {settings.isError ? 'Could not load the settings.' : 'Loading...'}
      </p>
    )
  }
  return <SettingsForm saved={settings.data.settings} />
}

function SettingsForm({ saved }: { saved: AdminSettings }) {
  const queryClient = useQueryClient()
  const save = useMutation({
    mutationFn: integrationsApi.saveSettings,
    onSuccess: (answer) => {
      if (!answer.success) return void toast.error(answer.error)
      queryClient.setQueryData(integrationsKeys.settings, answer)
      form.reset(formOf(answer.settings))
      toast.success('Settings saved', { duration: 2000 })
    },
    onError: (err) => toast.error(err instanceof Error ? err.message : 'Failed to save the settings'),
  })
  const form = useSchemaForm({
    schema: updateSettingsInputSchema.shape.p_settings,
    initial: () => formOf(saved),
    toInput: settingsOf,
    fieldOf: (path) => fieldOfSetting[String(path[0])] ?? String(path[0]),
    labels,
    onValid: (input) => {
      if (!save.isPending) save.mutate(input)
    },
  })
  const { values, errors, set } = form

  return (
    <form {...form.formProps} className="grid gap-6">
      <Panel title="Operator Notifications">
        <div className="grid max-w-xl gap-4">
          <Field
            label="Operator e-mail"
            error={errors.operatorEmail}
            hint="Alerts are e-mailed here (through the shop's mail sender)"
          >
            <TextInput
              type="email"
              value={values.operatorEmail}
              onChange={(e) => set('operatorEmail', e.target.value)}
            />
          </Field>
          <Field
            label="Telegram bot token"
            error={errors.newToken}
            hint={
              saved.telegram_bot_token_set
                ? 'A token is saved (it is never shown again). Type a new one to replace it.'
                : 'From @BotFather, like 123456:ABC…'
            }
          >
            <TextInput
              type="password"
              autoComplete="off"
              placeholder={saved.telegram_bot_token_set ? '•••••••• saved' : ''}
              value={values.newToken}
              disabled={values.removeToken}
              onChange={(e) => set('newToken', e.target.value)}
            />
          </Field>
          {saved.telegram_bot_token_set && (
            <label className="flex items-center gap-2 text-sm text-fg">
              <input
                type="checkbox"
                checked={values.removeToken}
                onChange={(e) => set('removeToken', e.target.checked)}
              />
              Remove the saved token
            </label>
          )}
          <Field label="Telegram chat id" hint="A numeric chat id, or @channelname" error={errors.chatId}>
            <TextInput value={values.chatId} onChange={(e) => set('chatId', e.target.value)} />
          </Field>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium text-fg">Send an alert when</legend>
            {alertKinds.map((kind) => (
              <label key={kind} className="flex items-center gap-2 text-sm text-fg">
                <input
                  type="checkbox"
                  checked={values.alerts[kind]}
                  onChange={(e) => set(`alerts.${kind}`, e.target.checked)}
                />
                {alertKindLabels[kind]}
              </label>
            ))}
            <span className="text-xs text-muted">
              The same alert about the same thing is sent at most once an hour.
            </span>
          </fieldset>
        </div>
      </Panel>
      <Panel title="Stock and Payments">
        <div className="grid max-w-xl gap-4">
          <Field
            label="Low-stock threshold"
            error={errors.lowStock}
            hint="Fewer free licence keys than this raises stock.low (0 turns it off)"
          >
            <TextInput
              type="number"
              min={0}
              max={100000}
              value={values.lowStock}
              onChange={(e) => set('lowStock', e.target.value)}
            />
          </Field>
          <label className="flex items-start gap-2 text-sm text-fg">
            <input
              type="checkbox"
              className="mt-1"
              checked={values.refuseWhileDelayed}
              onChange={(e) => set('refuseWhileDelayed', e.target.checked)}
            />
            <span>
              Refuse new checkouts while payment detection is delayed
              <span className="block text-xs text-muted">
                Otherwise buyers are told that a payment made now is safe and will be credited.
              </span>
            </span>
          </label>
          <Field label="Payment tolerance" hint="Set on the server (PAYMENT_TOLERANCE); shown for reference">
            <TextInput
              readOnly
              value={`$${saved.payment_tolerance_usd.toFixed(2)}${
                saved.payment_tolerance_percent !== null
                  ? ` or ${saved.payment_tolerance_percent} % of the total, whichever is less`
                  : ''
              }`}
            />
          </Field>
        </div>
      </Panel>
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Settings'}
        </Button>
      </div>
    </form>
  )
}
