import { localeNames, localeTags } from '../../../../shared/locale'
import type { ContentText, ContentTranslations } from '../../../../shared/localize'
import type { SiteContent } from '../../../../shared/site-content'
import { type MessageId, useT } from '../../../i18n/i18n'
import type { SchemaForm } from '../../../lib/form'
import { Field, TextArea, TextInput } from '../components/fields'

type TranslatedLocale = keyof ContentTranslations
export const translatedLocales: TranslatedLocale[] = ['zh', 'ru']

/**
 * The site's texts in one language other than English. Each shows the English text as its
 * placeholder: an empty one is what the storefront shows in that language.
 */
export function TranslationFields({
  locale,
  form,
}: {
  locale: TranslatedLocale
  form: SchemaForm<SiteContent>
}) {
  const t = useT()
  const content = form.values
  const language = localeNames[locale]
  const label = (id: MessageId, values?: Record<string, number>) =>
    t('admin.translations.field', { label: t(id, values), language })
  const path = (inside: string) => `translations.${locale}.${inside}`
  /** A text box's props: bound to this language's text at `inside`, the English one as placeholder. */
  const text = (inside: string, english: string) => ({
    lang: localeTags[locale],
    placeholder: english,
    ...form.field(path(inside)),
  })
  const error = (inside: string) => form.errors[path(inside)]
  return (
    <fieldset className="grid min-w-0 gap-4 rounded-xl border border-line p-4 sm:grid-cols-2">
      <legend className="px-1 text-sm font-semibold text-fg">
        {t('admin.translations.legend', { language })}
      </legend>
      <Field label={label('admin.content.navProducts')} error={error('navigation.products')}>
        <TextInput {...text('navigation.products', content.navigation.products)} />
      </Field>
      <Field label={label('admin.content.navSupport')} error={error('navigation.support')}>
        <TextInput {...text('navigation.support', content.navigation.support)} />
      </Field>
      <Field label={label('admin.content.heroTitle')} error={error('hero.title')}>
        <TextInput {...text('hero.title', content.hero.title)} />
      </Field>
      <Field label={label('admin.content.metaTitle')} error={error('meta.title')}>
        <TextInput {...text('meta.title', content.meta.title)} />
      </Field>
      <div className="sm:col-span-2">
        <Field label={label('admin.content.heroSubtitle')} error={error('hero.subtitle')}>
          <TextArea className="min-h-20 font-sans" {...text('hero.subtitle', content.hero.subtitle)} />
        </Field>
      </div>
      <Field label={label('admin.content.supportTitle')} error={error('support.title')}>
        <TextInput {...text('support.title', content.support.title)} />
      </Field>
      <Field label={label('admin.content.response')} error={error('support.response')}>
        <TextInput {...text('support.response', content.support.response)} />
      </Field>
      <div className="sm:col-span-2">
        <Field label={label('admin.content.supportSubtitle')} error={error('support.subtitle')}>
          <TextArea className="min-h-20 font-sans" {...text('support.subtitle', content.support.subtitle)} />
        </Field>
      </div>
      <TranslatedSections locale={locale} form={form} label={label} />
    </fieldset>
  )
}

function TranslatedSections({
  locale,
  form,
  label,
}: {
  locale: TranslatedLocale
  form: SchemaForm<SiteContent>
  label: (id: MessageId, values?: Record<string, number>) => string
}) {
  const content = form.values
  const translated: ContentText = content.translations?.[locale] ?? {}
  const translatedSections = translated.support?.sections ?? []
  const lang = localeTags[locale]
  const error = (inside: string) => form.errors[`translations.${locale}.${inside}`]
  const setSection = (i: number, key: 'title' | 'description', value: string) => {
    // Sections are an array: every one up to this one exists, so the schema reads an array.
    const next = content.support.sections.map((_, j) => ({ ...translatedSections[j] }))
    next[i] = { ...next[i], [key]: value }
    form.set(`translations.${locale}.support.sections`, next)
  }
  return content.support.sections.map((section, i) => (
    <div key={i} className="grid gap-3 rounded-xl border border-line p-3 sm:col-span-2">
      <Field
        label={label('admin.content.sectionTitle', { n: i + 1 })}
        error={error(`support.sections.${i}.title`)}
      >
        <TextInput
          lang={lang}
          placeholder={section.title}
          value={translatedSections[i]?.title ?? ''}
          onChange={(e) => setSection(i, 'title', e.target.value)}
        />
      </Field>
      <Field
        label={label('admin.content.sectionDescription', { n: i + 1 })}
        error={error(`support.sections.${i}.description`)}
      >
        <TextArea
          lang={lang}
          className="min-h-16 font-sans"
          placeholder={section.description}
          value={translatedSections[i]?.description ?? ''}
          onChange={(e) => setSection(i, 'description', e.target.value)}
        />
      </Field>
    </div>
  ))
}
