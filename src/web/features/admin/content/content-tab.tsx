import { Plus, Trash2 } from 'lucide-react'
import { useEffect } from 'react'
import { localeNames, localeTags } from '../../../../shared/locale'
import type { ContentText, ContentTranslations } from '../../../../shared/localize'
import { type SiteContent, siteContentSchema, supportIcons } from '../../../../shared/site-content'
import { Button } from '../../../components/ui/button'
import { type MessageId, useT } from '../../../i18n/i18n'
import { useSchemaForm } from '../../../lib/form'
import { toast } from '../../../lib/toast'
import { Field, inputClass, Panel, TextArea, TextInput } from '../components/fields'
import { useStoredContent, useUpdateContent } from './api/content'

const themeLabels: Record<keyof SiteContent['theme'], MessageId> = {
  primary: 'admin.content.theme.primary',
  primaryDark: 'admin.content.theme.primaryDark',
  background: 'admin.content.theme.background',
  card: 'admin.content.theme.card',
  accent: 'admin.content.theme.accent',
}

type TranslatedLocale = keyof ContentTranslations
const translatedLocales: TranslatedLocale[] = ['zh', 'ru']

export function ContentTab() {
  const t = useT()
  const stored = useStoredContent()
  useEffect(() => {
    if (stored.isError) toast.error(t('admin.content.fetchFailed'))
  }, [stored.isError, t])

  if (!stored.data) {
    return (
      <p role="status" className="py-10 text-center text-muted">
        {t('admin.loading')}
      </p>
    )
  }
  return <ContentForm initial={stored.data} />
}

/** Every text, image and colour of the storefront, checked with the shared site-content schema. */
export function ContentForm({ initial }: { initial: SiteContent }) {
  const t = useT()
  const update = useUpdateContent()
  const saving = update.isPending
  const form = useSchemaForm({
    schema: siteContentSchema,
    initial,
    onValid: (content) => {
      if (!saving) update.mutate(content)
    },
    onInvalid: (errors) => {
      const [field, text] = Object.entries(errors)[0] ?? []
      toast.error(t('admin.content.invalid', { field: String(field), error: String(text) }))
    },
  })
  const { values: content, errors, set } = form
  const sections = content.support.sections

  return (
    // The shared schema validates, so a path such as /images/hero-bg.svg passes as an image URL.
    <form {...form.formProps} className="flex flex-col gap-6">
      <Panel title={t('admin.content.logoNav')}>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t('admin.content.logoMain')} error={errors['logo.mainText']}>
            <TextInput value={content.logo.mainText} onChange={(e) => set('logo.mainText', e.target.value)} />
          </Field>
          <Field label={t('admin.content.logoSub')} error={errors['logo.subText']}>
            <TextInput value={content.logo.subText} onChange={(e) => set('logo.subText', e.target.value)} />
          </Field>
          <Field label={t('admin.content.navProducts')} error={errors['navigation.products']}>
            <TextInput
              value={content.navigation.products}
              onChange={(e) => set('navigation.products', e.target.value)}
            />
          </Field>
          <Field label={t('admin.content.navSupport')} error={errors['navigation.support']}>
            <TextInput
              value={content.navigation.support}
              onChange={(e) => set('navigation.support', e.target.value)}
            />
          </Field>
        </div>
      </Panel>

      <Panel title={t('admin.content.heroSection')}>
        <div className="grid gap-4">
          <Field label={t('admin.content.heroTitle')} error={errors['hero.title']}>
            <TextInput value={content.hero.title} onChange={(e) => set('hero.title', e.target.value)} />
          </Field>
          <Field label={t('admin.content.heroSubtitle')} error={errors['hero.subtitle']}>
            <TextArea
              className="min-h-20 font-sans"
              value={content.hero.subtitle}
              onChange={(e) => set('hero.subtitle', e.target.value)}
            />
          </Field>
          <Field label={t('admin.content.heroImage')} error={errors['hero.backgroundImage']}>
            <TextInput
              type="url"
              value={content.hero.backgroundImage}
              onChange={(e) => set('hero.backgroundImage', e.target.value)}
            />
          </Field>
          <Field label={t('admin.content.metaTitle')} error={errors['meta.title']}>
            <TextInput value={content.meta.title} onChange={(e) => set('meta.title', e.target.value)} />
          </Field>
        </div>
      </Panel>

      <Panel title={t('admin.content.theme')}>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          {(Object.keys(themeLabels) as (keyof SiteContent['theme'])[]).map((key) => (
            <div key={key} className="flex items-start gap-2">
              {/* The picker and the text box edit the same colour; the text box carries the label and the error. */}
              <input
                type="color"
                aria-label={t('admin.content.colourPicker', { name: t(themeLabels[key]) })}
                value={content.theme[key]}
                onChange={(e) => set(`theme.${key}`, e.target.value)}
                className="mt-7 h-10 w-12 shrink-0 cursor-pointer rounded-lg border border-line bg-background"
              />
              <div className="min-w-0 flex-1">
                <Field label={t(themeLabels[key])} error={errors[`theme.${key}`]}>
                  <TextInput
                    value={content.theme[key]}
                    onChange={(e) => set(`theme.${key}`, e.target.value)}
                  />
                </Field>
              </div>
            </div>
          ))}
        </div>
      </Panel>

      <Panel title={t('admin.content.support')}>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t('admin.content.supportTitle')} error={errors['support.title']}>
            <TextInput value={content.support.title} onChange={(e) => set('support.title', e.target.value)} />
          </Field>
          <Field label={t('admin.content.supportEmail')} error={errors['support.email']}>
            <TextInput
              type="email"
              value={content.support.email}
              onChange={(e) => set('support.email', e.target.value)}
            />
          </Field>
          <div className="sm:col-span-2">
            <Field label={t('admin.content.supportSubtitle')} error={errors['support.subtitle']}>
              <TextArea
                className="min-h-20 font-sans"
                value={content.support.subtitle}
                onChange={(e) => set('support.subtitle', e.target.value)}
              />
            </Field>
          </div>
          <Field label={t('admin.content.response')} error={errors['support.response']}>
            <TextInput
              value={content.support.response}
              onChange={(e) => set('support.response', e.target.value)}
            />
          </Field>
        </div>
        <h3 className="mt-6 mb-3 font-semibold text-fg">{t('admin.content.sections')}</h3>
        <ul className="flex flex-col gap-4">
          {sections.map((section, i) => (
            <li
              key={i}
              className="grid gap-3 rounded-xl border border-line p-3 sm:grid-cols-[1fr_10rem_auto]"
            >
              <Field
                label={t('admin.content.sectionTitle', { n: i + 1 })}
                error={errors[`support.sections.${i}.title`]}
              >
                <TextInput
                  value={section.title}
                  onChange={(e) => set(`support.sections.${i}.title`, e.target.value)}
                />
              </Field>
              <Field label={t('admin.content.icon')}>
                <select
                  value={section.icon}
                  onChange={(e) =>
                    set(`support.sections.${i}.icon`, e.target.value as (typeof supportIcons)[number])
                  }
                  className={inputClass}
                >
                  {supportIcons.map((icon) => (
                    <option key={icon} value={icon}>
                      {icon}
                    </option>
                  ))}
                </select>
              </Field>
              <div className="flex items-end">
                <Button
                  variant="ghost"
                  aria-label={t('admin.content.removeSection', { n: i + 1 })}
                  onClick={() => {
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
                  }}
                >
                  <Trash2 className="size-4 text-red-400" aria-hidden />
                </Button>
              </div>
              <div className="sm:col-span-3">
                <Field
                  label={t('admin.content.sectionDescription', { n: i + 1 })}
                  error={errors[`support.sections.${i}.description`]}
                >
                  <TextArea
                    className="min-h-16 font-sans"
                    value={section.description}
                    onChange={(e) => set(`support.sections.${i}.description`, e.target.value)}
                  />
                </Field>
              </div>
            </li>
          ))}
        </ul>
        {sections.length < 8 && (
          <Button
            variant="secondary"
            className="mt-3"
            onClick={() =>
              set('support.sections', [...sections, { title: '', description: '', icon: 'mail' }])
            }
          >
            <Plus className="size-4" aria-hidden />
            {t('admin.content.addSection')}
          </Button>
        )}
      </Panel>

      <Panel title={t('admin.content.translations')}>
        <p className="mb-4 text-sm text-muted">{t('admin.translations.fallback')}</p>
        <div className="flex flex-col gap-6">
          {translatedLocales.map((locale) => (
            <TranslationFields
              key={locale}
              locale={locale}
              content={content}
              errors={errors}
              set={(path, value) => set(`translations.${locale}.${path}`, value)}
            />
          ))}
        </div>
      </Panel>

      <div className="flex justify-end">
        <Button type="submit" disabled={saving}>
          {saving ? t('admin.saving') : t('admin.content.save')}
        </Button>
      </div>
    </form>
  )
}

/**
 * The site's texts in one language other than English. Each shows the English text as its
 * placeholder: an empty one is what the storefront shows in that language.
 */
function TranslationFields({
  locale,
  content,
  errors,
  set,
}: {
  locale: TranslatedLocale
  content: SiteContent
  errors: Readonly<Record<string, string>>
  /** Sets a value by its path inside this language's texts ('hero.title'). */
  set: (path: string, value: unknown) => void
}) {
  const t = useT()
  const text: ContentText = content.translations?.[locale] ?? {}
  const language = localeNames[locale]
  const label = (id: MessageId, values?: Record<string, number>) =>
    t('admin.translations.field', { label: t(id, values), language })
  const error = (path: string) => errors[`translations.${locale}.${path}`]
  const lang = localeTags[locale]
  const translatedSections = text.support?.sections ?? []
  const setSection = (i: number, key: 'title' | 'description', value: string) => {
    // Sections are an array: every one up to this one exists, so the schema reads an array.
    const next = content.support.sections.map((_, j) => ({ ...translatedSections[j] }))
    next[i] = { ...next[i], [key]: value }
    set('support.sections', next)
  }
  return (
    <fieldset className="grid min-w-0 gap-4 rounded-xl border border-line p-4 sm:grid-cols-2">
      <legend className="px-1 text-sm font-semibold text-fg">
        {t('admin.translations.legend', { language })}
      </legend>
      <Field label={label('admin.content.navProducts')} error={error('navigation.products')}>
        <TextInput
          lang={lang}
          placeholder={content.navigation.products}
          value={text.navigation?.products ?? ''}
          onChange={(e) => set('navigation.products', e.target.value)}
        />
      </Field>
      <Field label={label('admin.content.navSupport')} error={error('navigation.support')}>
        <TextInput
          lang={lang}
          placeholder={content.navigation.support}
          value={text.navigation?.support ?? ''}
          onChange={(e) => set('navigation.support', e.target.value)}
        />
      </Field>
      <Field label={label('admin.content.heroTitle')} error={error('hero.title')}>
        <TextInput
          lang={lang}
          placeholder={content.hero.title}
          value={text.hero?.title ?? ''}
          onChange={(e) => set('hero.title', e.target.value)}
        />
      </Field>
      <Field label={label('admin.content.metaTitle')} error={error('meta.title')}>
        <TextInput
          lang={lang}
          placeholder={content.meta.title}
          value={text.meta?.title ?? ''}
          onChange={(e) => set('meta.title', e.target.value)}
        />
      </Field>
      <div className="sm:col-span-2">
        <Field label={label('admin.content.heroSubtitle')} error={error('hero.subtitle')}>
          <TextArea
            lang={lang}
            className="min-h-20 font-sans"
            placeholder={content.hero.subtitle}
            value={text.hero?.subtitle ?? ''}
            onChange={(e) => set('hero.subtitle', e.target.value)}
          />
        </Field>
      </div>
      <Field label={label('admin.content.supportTitle')} error={error('support.title')}>
        <TextInput
          lang={lang}
          placeholder={content.support.title}
          value={text.support?.title ?? ''}
          onChange={(e) => set('support.title', e.target.value)}
        />
      </Field>
      <Field label={label('admin.content.response')} error={error('support.response')}>
        <TextInput
          lang={lang}
          placeholder={content.support.response}
          value={text.support?.response ?? ''}
          onChange={(e) => set('support.response', e.target.value)}
        />
      </Field>
      <div className="sm:col-span-2">
        <Field label={label('admin.content.supportSubtitle')} error={error('support.subtitle')}>
          <TextArea
            lang={lang}
            className="min-h-20 font-sans"
            placeholder={content.support.subtitle}
            value={text.support?.subtitle ?? ''}
            onChange={(e) => set('support.subtitle', e.target.value)}
          />
        </Field>
      </div>
      {content.support.sections.map((section, i) => (
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
      ))}
    </fieldset>
  )
}
