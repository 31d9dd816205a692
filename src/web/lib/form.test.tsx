// @vitest-environment happy-dom
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { I18nProvider } from '@lingui/react'
import { fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import '../test/setup-dom'
import { saveWebhookInputSchema } from '../../shared/webhooks'
import { activateWith, createI18n } from '../i18n/i18n'
import adminEn from '../i18n/messages/admin/en.json'
import adminRu from '../i18n/messages/admin/ru.json'
import adminZh from '../i18n/messages/admin/zh.json'
import { getIn, setIn, useSchemaForm } from './form'
import { schemaTexts } from './form-errors'

// A small form on a real shared schema: the webhook call's URL and events rules.
type Values = { p_url: string; p_events: string[]; p_include_keys: boolean; p_enabled: boolean }
const valid: unknown[] = []

function WebhookForm({ initial }: { initial: Values }) {
  const form = useSchemaForm({
    schema: saveWebhookInputSchema,
    initial,
    labels: { p_url: 'Endpoint URL' },
    errors: { p_events: { too_small: 'Choose at least one event' } },
    onValid: (data) => valid.push(data),
  })
  return (
    <form {...form.formProps}>
      <label htmlFor="events">Events</label>
      <input
        id="events"
        value={form.values.p_events.join(',')}
        onChange={(e) => form.set('p_events', e.target.value ? e.target.value.split(',') : [])}
        {...form.control('p_events')}
      />
      {form.errors.p_events && <p id={form.errorId('p_events')}>{form.errors.p_events}</p>}
      <label htmlFor="url">URL</label>
      <input id="url" {...form.field('p_url')} />
      {form.errors.p_url && <p id={form.errorId('p_url')}>{form.errors.p_url}</p>}
      <label>
        <input type="checkbox" {...form.checkbox('p_include_keys')} />
        Include keys
      </label>
      <button type="submit">Save</button>
    </form>
  )
}

const start: Values = { p_url: 'ftp://x', p_events: [], p_include_keys: false, p_enabled: true }
const describedText = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' | ')

describe('useSchemaForm', () => {
  it('refuses an invalid submit: errors tied to their inputs, the first invalid input focused', () => {
    valid.length = 0
    render(<WebhookForm initial={start} />)
    const url = screen.getByLabelText('URL')
    const events = screen.getByLabelText('Events')
    // Nothing is checked before the first submit.
    expect(url.getAttribute('aria-invalid')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))

    expect(valid).toEqual([])
    expect(url.getAttribute('aria-invalid')).toBe('true')
    // The schema's sentence follows its label; an overridden message stands as given.
    expect(describedText(url)).toBe('Endpoint URL must be an http:// or https:// URL')
    expect(events.getAttribute('aria-invalid')).toBe('true')
    expect(describedText(events)).toBe('Choose at least one event')
    // First in the form's order, not the schema's.
    expect(document.activeElement).toBe(events)
  })

  it('re-checks a checked field on change: a fixed field clears, the others keep their errors', () => {
    render(<WebhookForm initial={start} />)
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    const url = screen.getByLabelText('URL')
    fireEvent.change(url, { target: { value: 'https://example.com/hook' } })
    expect(url.getAttribute('aria-invalid')).toBeNull()
    expect(url.getAttribute('aria-describedby')).toBeNull()
    expect(screen.getByText('Choose at least one event')).toBeTruthy()
    // Broken again: the error comes back while typing, without another submit.
    fireEvent.change(url, { target: { value: 'example.com' } })
    expect(describedText(url)).toBe('Endpoint URL must be an http:// or https:// URL')
  })

  it('says nothing while typing before the first submit', () => {
    render(<WebhookForm initial={{ ...start, p_url: '' }} />)
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'not a url' } })
    expect(screen.getByLabelText('URL').getAttribute('aria-invalid')).toBeNull()
  })

  it("hands the schema's output to onValid once", () => {
    valid.length = 0
    render(<WebhookForm initial={start} />)
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: '  https://example.com/hook  ' } })
    fireEvent.change(screen.getByLabelText('Events'), { target: { value: 'order.paid' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(valid).toEqual([
      { p_url: 'https://example.com/hook', p_events: ['order.paid'], p_include_keys: false, p_enabled: true },
    ])
  })
})

describe('bound controls', () => {
  it('field() and checkbox() show the value, set it on change, and carry the aria of an error', () => {
    valid.length = 0
    render(<WebhookForm initial={{ ...start, p_url: 'ftp://x' }} />)
    const url = screen.getByLabelText('URL') as HTMLInputElement
    const keys = screen.getByLabelText('Include keys') as HTMLInputElement
    expect(url.value).toBe('ftp://x')
    expect(keys.checked).toBe(false)
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(describedText(url)).toBe('Endpoint URL must be an http:// or https:// URL')
    fireEvent.change(url, { target: { value: 'https://example.com/hook' } })
    fireEvent.click(keys)
    fireEvent.change(screen.getByLabelText('Events'), { target: { value: 'order.paid' } })
    expect(url.value).toBe('https://example.com/hook')
    expect(url.getAttribute('aria-invalid')).toBeNull()
    expect(keys.checked).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(valid).toEqual([
      { p_url: 'https://example.com/hook', p_events: ['order.paid'], p_include_keys: true, p_enabled: true },
    ])
  })
})

describe("the schema's texts in the panel's language", () => {
  const shown = (locale: 'en' | 'zh' | 'ru', messages: Record<string, unknown>) => {
    const i18n = activateWith(createI18n(), locale, messages)
    const view = render(
      <I18nProvider i18n={i18n}>
        <WebhookForm initial={start} />
      </I18nProvider>,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    const text = describedText(screen.getByLabelText('URL'))
    view.unmount()
    return text
  }

  it('shows the clause after its label as each language writes it; English word for word', () => {
    expect(shown('en', adminEn)).toBe('Endpoint URL must be an http:// or https:// URL')
    expect(shown('ru', adminRu)).toBe('Endpoint URL: должно быть адресом http:// или https://')
    expect(shown('zh', adminZh)).toBe('Endpoint URL：必须是 http:// 或 https:// 网址')
  })

  it('keeps every catalogued text in step with the shared schemas', () => {
    const dir = join(__dirname, '../../shared')
    const sources = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('\n')
    for (const [english, id] of Object.entries(schemaTexts)) {
      expect(sources, english).toContain(`'${english}'`)
      expect((adminEn as Record<string, string>)[id]).toBe(english)
    }
  })
})

describe('getIn', () => {
  it('reads a dotted path, and nothing where the path leads nowhere', () => {
    const values = { support: { sections: [{ title: 'a' }] }, translations: {} }
    expect(getIn(values, 'support.sections.0.title')).toBe('a')
    expect(getIn(values, 'translations.zh.hero.title')).toBeUndefined()
  })
})

describe('setIn', () => {
  it('copies each object and array on the path and leaves the original alone', () => {
    const before = { support: { sections: [{ title: 'a' }, { title: 'b' }] }, hero: { title: 'h' } }
    const after = setIn(before, 'support.sections.1.title', 'c')
    expect(after).toEqual({ support: { sections: [{ title: 'a' }, { title: 'c' }] }, hero: { title: 'h' } })
    expect(before.support.sections[1]?.title).toBe('b')
    expect(Array.isArray(after.support.sections)).toBe(true)
    expect(after.hero).toBe(before.hero)
  })
})
