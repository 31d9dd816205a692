import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useEffect, useState } from 'react'
import { type AdminSettings, type AlertKind, alertKindLabels, alertKinds } from '../../../../shared/settings'
import { Button } from '../../../components/ui/button'
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
}

const formOf = (s: AdminSettings): Form => ({
  operatorEmail: s.operator_email ?? '',
  chatId: s.telegram_chat_id ?? '',
  newToken: '',
  removeToken: false,
  alerts: { ...s.alerts },
  lowStock: String(s.low_stock_threshold),
})

/** Operator e-mail, Telegram, which alerts to send, low-stock threshold; kept in the database. */
export function SettingsTab() {
  const queryClient = useQueryClient()
  const settings = useQuery({ queryKey: integrationsKeys.settings, queryFn: integrationsApi.settings })
  const [form, setForm] = useState<Form | null>(null)
  useEffect(() => {
    if (settings.data && !form) setForm(formOf(settings.data.settings))
  }, [settings.data, form])

  const save = useMutation({
    mutationFn: integrationsApi.saveSettings,
    onSuccess: (answer) => {
      if (!answer.success) return void toast.error(answer.error)
      queryClient.setQueryData(integrationsKeys.settings, answer)
      setForm(formOf(answer.settings))
      toast.success('Settings saved', { duration: 2000 })
    },
    onError: (err) => toast.error(err instanceof Error ? err.message : 'Failed to save the settings'),
  })

  if (!settings.data || !form) {
    return (
      <p role="status" className="py-16 text-center text-muted">
        {settings.isError ? 'Could not load the settings.' : 'Loading...'}
      </p>
    )
  }
  const saved = settings.data.settings

  function submit(event: FormEvent) {
    event.preventDefault()
    if (!form || save.isPending) return
    save.mutate({
      operator_email: form.operatorEmail.trim() || null,
      telegram_chat_id: form.chatId.trim() || null,
      telegram_bot_token: form.removeToken ? '' : form.newToken.trim() || undefined,
      alerts: form.alerts,
      low_stock_threshold: Number.parseInt(form.lowStock, 10) || 0,
    })
  }

  return (
    <form onSubmit={submit} className="grid gap-6">
      <Panel title="Operator Notifications">
        <div className="grid max-w-xl gap-4">
          <Field label="Operator e-mail" hint="Alerts are e-mailed here (through the shop's mail sender)">
            <TextInput
              type="email"
              value={form.operatorEmail}
              onChange={(e) => setForm({ ...form, operatorEmail: e.target.value })}
            />
          </Field>
          <Field
            label="Telegram bot token"
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
              value={form.newToken}
              disabled={form.removeToken}
              onChange={(e) => setForm({ ...form, newToken: e.target.value })}
            />
          </Field>
          {saved.telegram_bot_token_set && (
            <label className="flex items-center gap-2 text-sm text-fg">
              <input
                type="checkbox"
                checked={form.removeToken}
                onChange={(e) => setForm({ ...form, removeToken: e.target.checked })}
              />
              Remove the saved token
            </label>
          )}
          <Field label="Telegram chat id" hint="A numeric chat id, or @channelname">
            <TextInput value={form.chatId} onChange={(e) => setForm({ ...form, chatId: e.target.value })} />
          </Field>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium text-fg">Send an alert when</legend>
            {alertKinds.map((kind) => (
              <label key={kind} className="flex items-center gap-2 text-sm text-fg">
                <input
                  type="checkbox"
                  checked={form.alerts[kind]}
                  onChange={(e) => setForm({ ...form, alerts: { ...form.alerts, [kind]: e.target.checked } })}
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
            hint="Fewer free licence keys than this raises stock.low (0 turns it off)"
          >
            <TextInput
              type="number"
              min={0}
              max={100000}
              value={form.lowStock}
              onChange={(e) => setForm({ ...form, lowStock: e.target.value })}
            />
          </Field>
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
