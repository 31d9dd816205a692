import { useEffect } from 'react'
import { type SiteContent, siteContentSchema } from '../../../../shared/site-content'
import { Button } from '../../../components/ui/button'
import { useT } from '../../../i18n/i18n'
import { useSchemaForm } from '../../../lib/form'
import { toast } from '../../../lib/toast'
import { Panel } from '../components/fields'
import { useStoredContent, useUpdateContent } from './api/content'
import { HeroPanel, LogoNavPanel, ThemePanel } from './content-panels'
import { SupportPanel } from './support-panel'
import { TranslationFields, translatedLocales } from './translation-fields'

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

  return (
    // The shared schema validates, so a path such as /images/hero-bg.svg passes as an image URL.
    <form {...form.formProps} className="flex flex-col gap-6">
      <LogoNavPanel form={form} />
      <HeroPanel form={form} />
      <ThemePanel form={form} />
      <SupportPanel form={form} />
      <Panel title={t('admin.content.translations')}>
        <p className="mb-4 text-sm text-muted">{t('admin.translations.fallback')}</p>
        <div className="flex flex-col gap-6">
          {translatedLocales.map((locale) => (
            <TranslationFields key={locale} locale={locale} form={form} />
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
