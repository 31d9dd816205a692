import type { SiteContent } from '../../../../shared/site-content'
import { type MessageId, useT } from '../../../i18n/i18n'
import type { SchemaForm } from '../../../lib/form'
import { Field, Panel, TextArea, TextInput } from '../components/fields'

// The content form's English panels: logo and navigation, hero, theme colours.

type ContentFormState = { form: SchemaForm<SiteContent> }

export function LogoNavPanel({ form }: ContentFormState) {
  const t = useT()
  const { errors } = form
  return (
    <Panel title={t('admin.content.logoNav')}>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t('admin.content.logoMain')} error={errors['logo.mainText']}>
          <TextInput {...form.field('logo.mainText')} />
        </Field>
        <Field label={t('admin.content.logoSub')} error={errors['logo.subText']}>
          <TextInput {...form.field('logo.subText')} />
        </Field>
        <Field label={t('admin.content.navProducts')} error={errors['navigation.products']}>
          <TextInput {...form.field('navigation.products')} />
        </Field>
        <Field label={t('admin.content.navSupport')} error={errors['navigation.support']}>
          <TextInput {...form.field('navigation.support')} />
        </Field>
      </div>
    </Panel>
  )
}

export function HeroPanel({ form }: ContentFormState) {
  const t = useT()
  const { errors } = form
  return (
    <Panel title={t('admin.content.heroSection')}>
      <div className="grid gap-4">
        <Field label={t('admin.content.heroTitle')} error={errors['hero.title']}>
          <TextInput {...form.field('hero.title')} />
        </Field>
        <Field label={t('admin.content.heroSubtitle')} error={errors['hero.subtitle']}>
          <TextArea className="min-h-20 font-sans" {...form.field('hero.subtitle')} />
        </Field>
        <Field label={t('admin.content.heroImage')} error={errors['hero.backgroundImage']}>
          <TextInput type="url" {...form.field('hero.backgroundImage')} />
        </Field>
        <Field label={t('admin.content.metaTitle')} error={errors['meta.title']}>
          <TextInput {...form.field('meta.title')} />
        </Field>
      </div>
    </Panel>
  )
}

const themeLabels: Record<keyof SiteContent['theme'], MessageId> = {
  primary: 'admin.content.theme.primary',
  primaryDark: 'admin.content.theme.primaryDark',
  background: 'admin.content.theme.background',
  card: 'admin.content.theme.card',
  accent: 'admin.content.theme.accent',
}

export function ThemePanel({ form }: ContentFormState) {
  const t = useT()
  return (
    <Panel title={t('admin.content.theme')}>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        {(Object.keys(themeLabels) as (keyof SiteContent['theme'])[]).map((key) => (
          <div key={key} className="flex items-start gap-2">
            {/* The picker and the text box edit the same colour; the text box carries the label and the error. */}
            <input
              type="color"
              aria-label={t('admin.content.colourPicker', { name: t(themeLabels[key]) })}
              value={form.values.theme[key]}
              onChange={form.field(`theme.${key}`).onChange}
              className="mt-7 h-10 w-12 shrink-0 cursor-pointer rounded-lg border border-line bg-background"
            />
            <div className="min-w-0 flex-1">
              <Field label={t(themeLabels[key])} error={form.errors[`theme.${key}`]}>
                <TextInput {...form.field(`theme.${key}`)} />
              </Field>
            </div>
          </div>
        ))}
      </div>
    </Panel>
  )
}
