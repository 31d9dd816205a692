import { useT } from '../../../i18n/i18n'
import type { SchemaForm } from '../../../lib/form'
import { Field, TextInput } from '../components/fields'

// The fields both webhook forms of the Webhooks tab share, the shop's own endpoint's and a
// Greenfield registration's: the endpoint's URL and the checklist of the events it is sent. Each
// is bound to the form's `p_url` / `p_events` through the one form hook (lib/form.ts).

/** What the fields read and set of a webhook form, whatever its other fields. */
type WebhookForm<E extends string> = Pick<
  SchemaForm<{ p_url: string; p_events: E[] }>,
  'values' | 'errors' | 'set' | 'field' | 'control' | 'errorId'
>

/** The endpoint's URL, with the form's label, hint and example for it. */
export function WebhookUrlField<E extends string>({
  form,
  label,
  hint,
  placeholder,
}: {
  form: WebhookForm<E>
  label: string
  hint: string
  placeholder: string
}) {
  return (
    <Field label={label} hint={hint} error={form.errors.p_url}>
      <TextInput type="url" required placeholder={placeholder} {...form.field('p_url')} />
    </Field>
  )
}

/**
 * One checkbox per event the endpoint can be sent, in the list's order; the events chosen stay in
 * that order. The schema asks for at least one: its error is shown below and tied to each box.
 */
export function EventChecklist<E extends string>({
  form,
  events,
}: {
  form: WebhookForm<E>
  events: readonly E[]
}) {
  const t = useT()
  const chosen = form.values.p_events
  return (
    <fieldset className="grid gap-2 sm:grid-cols-2">
      <legend className="mb-1 text-sm font-medium text-fg">{t('admin.webhooks.events')}</legend>
      {events.map((name) => (
        <label key={name} className="flex items-center gap-2 font-mono text-sm text-fg">
          <input
            type="checkbox"
            checked={chosen.includes(name)}
            onChange={(e) =>
              form.set(
                'p_events',
                e.target.checked
                  ? events.filter((n) => n === name || chosen.includes(n))
                  : chosen.filter((n) => n !== name),
              )
            }
            {...form.control('p_events')}
          />
          {name}
        </label>
      ))}
      {form.errors.p_events && (
        <span id={form.errorId('p_events')} role="alert" className="text-xs text-red-400 sm:col-span-2">
          {form.errors.p_events}
        </span>
      )}
    </fieldset>
  )
}
