import { Plus, Trash2 } from 'lucide-react'
import { type SiteContent, supportIcons } from '../../../../shared/site-content'
import { Button } from '../../../components/ui/button'
import { useT } from '../../../i18n/i18n'
import type { SchemaForm } from '../../../lib/form'
import { Field, inputClass, Panel, TextArea, TextInput } from '../components/fields'
import { translatedLocales } from './translation-fields'

// The support page's texts and its sections (up to eight), in English.

const MAX_SECTIONS = 8

export function SupportPanel({ form }: { form: SchemaForm<SiteContent> }) {
  const t = useT()
  const { errors, set } = form
  const sections = form.values.support.sections
  return (
    <Panel title={t('admin.content.support')}>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t('admin.content.supportTitle')} error={errors['support.title']}>
          <TextInput {...form.field('support.title')} />
        </Field>
        <Field label={t('admin.content.supportEmail')} error={errors['support.email']}>
          <TextInput type="email" {...form.field('support.email')} />
        </Field>
        <div className="sm:col-span-2">
          <Field label={t('admin.content.supportSubtitle')} error={errors['support.subtitle']}>
            <TextArea className="min-h-20 font-sans" {...form.field('support.subtitle')} />
          </Field>
        </div>
        <Field label={t('admin.content.response')} error={errors['support.response']}>
          <TextInput {...form.field('support.response')} />
        </Field>
      </div>
      <h3 className="mt-6 mb-3 font-semibold text-fg">{t('admin.content.sections')}</h3>
      <ul className="flex flex-col gap-4">
        {sections.map((_, i) => (
          <SectionFields key={i} form={form} index={i} />
        ))}
      </ul>
      {sections.length < MAX_SECTIONS && (
        <Button
          variant="secondary"
          className="mt-3"
          onClick={() => set('support.sections', [...sections, { title: '', description: '', icon: 'mail' }])}
        >
          <Plus className="size-4" aria-hidden />
          {t('admin.content.addSection')}
        </Button>
      )}
    </Panel>
  )
}

function SectionFields({ form, index: i }: { form: SchemaForm<SiteContent>; index: number }) {
  const t = useT()
  const { values: content, errors, set } = form
  const sections = content.support.sections
  const remove = () => {
    set(
      'support.sections',
      sections.filter((_, j) => j !== i),
    )
    // The translations of a section follow it, so section 3's Chinese stays section 3's.
    for (const locale of translatedLocales) {
      const translated = content.translations?.[locale]?.support?.sections
      if (translated && translated.length > i)
        set(
          `translations.${locale}.support.sections`,
          translated.filter((_, j) => j !== i),
        )
    }
  }
  return (
    <li className="grid gap-3 rounded-xl border border-line p-3 sm:grid-cols-[1fr_10rem_auto]">
      <Field
        label={t('admin.content.sectionTitle', { n: i + 1 })}
        error={errors[`support.sections.${i}.title`]}
      >
        <TextInput {...form.field(`support.sections.${i}.title`)} />
      </Field>
      <Field label={t('admin.content.icon')}>
        <select {...form.field(`support.sections.${i}.icon`)} className={inputClass}>
          {supportIcons.map((icon) => (
            <option key={icon} value={icon}>
              {icon}
            </option>
          ))}
        </select>
      </Field>
      <div className="flex items-end">
        <Button variant="ghost" aria-label={t('admin.content.removeSection', { n: i + 1 })} onClick={remove}>
          <Trash2 className="size-4 text-red-400" aria-hidden />
        </Button>
      </div>
      <div className="sm:col-span-3">
        <Field
          label={t('admin.content.sectionDescription', { n: i + 1 })}
          error={errors[`support.sections.${i}.description`]}
        >
          <TextArea className="min-h-16 font-sans" {...form.field(`support.sections.${i}.description`)} />
        </Field>
      </div>
    </li>
  )
}
