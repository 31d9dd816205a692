import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Plus, Trash2 } from 'lucide-react'
import { type FormEvent, useEffect, useState } from 'react'
import { type SiteContent, siteContentSchema, supportIcons } from '../../../shared/site-content'
import { Button } from '../../components/ui/button'
import { getSiteContent, siteContentKeys } from '../../lib/api/get-site-content'
import { toast } from '../../lib/toast'
import { adminApi, adminKeys } from './api/admin-api'
import { Field, inputClass, Panel, TextArea, TextInput } from './components/fields'

const themeLabels: Record<keyof SiteContent['theme'], string> = {
  primary: 'Primary',
  primaryDark: 'Primary (dark)',
  background: 'Background',
  card: 'Card',
  accent: 'Accent',
}

export function ContentTab() {
  const queryClient = useQueryClient()
  // Always the server's current content, never the storefront's cached copy.
  const stored = useQuery({ queryKey: adminKeys.content, queryFn: getSiteContent, staleTime: 0 })
  const [content, setContent] = useState<SiteContent | null>(null)
  const update = useMutation({
    mutationFn: async (next: SiteContent) => {
      const answer = await adminApi.updateContent(next)
      if (!answer.success) throw new Error('Failed to update content')
      return next
    },
    onSuccess: async (next) => {
      toast.success('Content updated successfully', { duration: 2000 })
      queryClient.setQueryData(siteContentKeys.all, next)
      await queryClient.invalidateQueries({ queryKey: siteContentKeys.all })
    },
    onError: () => toast.error('Failed to update site content'),
  })
  const saving = update.isPending

  useEffect(() => {
    if (stored.data && !content) setContent(stored.data)
  }, [stored.data, content])
  useEffect(() => {
    if (stored.isError) toast.error('Failed to fetch content')
  }, [stored.isError])

  if (!content) {
    return (
      <p role="status" className="py-10 text-center text-muted">
        Loading...
      </p>
    )
  }

  const patch = <K extends keyof SiteContent>(key: K, value: Partial<SiteContent[K]>) =>
    setContent({ ...content, [key]: { ...content[key], ...value } })
  const sections = content.support.sections
  const setSection = (i: number, value: Partial<SiteContent['support']['sections'][number]>) =>
    patch('support', { sections: sections.map((s, j) => (j === i ? { ...s, ...value } : s)) })

  function save(event: FormEvent) {
    event.preventDefault()
    if (!content || saving) return
    const parsed = siteContentSchema.safeParse(content)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      toast.error(`Failed to update site content: ${issue?.path.join('.')} ${issue?.message}`)
      return
    }
    update.mutate(parsed.data)
  }

  return (
    // The shared schema validates, so a path such as /images/hero-bg.svg passes as an image URL.
    <form noValidate onSubmit={save} className="flex flex-col gap-6">
      <Panel title="Logo and navigation">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Logo main text">
            <TextInput
              value={content.logo.mainText}
              onChange={(e) => patch('logo', { mainText: e.target.value })}
            />
          </Field>
          <Field label="Logo sub text">
            <TextInput
              value={content.logo.subText}
              onChange={(e) => patch('logo', { subText: e.target.value })}
            />
          </Field>
          <Field label="Navigation: products">
            <TextInput
              value={content.navigation.products}
              onChange={(e) => patch('navigation', { products: e.target.value })}
            />
          </Field>
          <Field label="Navigation: support">
            <TextInput
              value={content.navigation.support}
              onChange={(e) => patch('navigation', { support: e.target.value })}
            />
          </Field>
        </div>
      </Panel>

      <Panel title="Hero and page title">
        <div className="grid gap-4">
          <Field label="Hero title">
            <TextInput
              value={content.hero.title}
              onChange={(e) => patch('hero', { title: e.target.value })}
            />
          </Field>
          <Field label="Hero subtitle">
            <TextArea
              className="min-h-20 font-sans"
              value={content.hero.subtitle}
              onChange={(e) => patch('hero', { subtitle: e.target.value })}
            />
          </Field>
          <Field label="Hero background image URL">
            <TextInput
              type="url"
              value={content.hero.backgroundImage}
              onChange={(e) => patch('hero', { backgroundImage: e.target.value })}
            />
          </Field>
          <Field label="Meta title">
            <TextInput
              value={content.meta.title}
              onChange={(e) => patch('meta', { title: e.target.value })}
            />
          </Field>
        </div>
      </Panel>

      <Panel title="Theme colours">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          {(Object.keys(themeLabels) as (keyof SiteContent['theme'])[]).map((key) => (
            <Field key={key} label={themeLabels[key]}>
              <span className="flex items-center gap-2">
                <input
                  type="color"
                  aria-label={`${themeLabels[key]} colour picker`}
                  value={content.theme[key]}
                  onChange={(e) => patch('theme', { [key]: e.target.value })}
                  className="h-10 w-12 shrink-0 cursor-pointer rounded-lg border border-line bg-background"
                />
                <TextInput
                  value={content.theme[key]}
                  onChange={(e) => patch('theme', { [key]: e.target.value })}
                />
              </span>
            </Field>
          ))}
        </div>
      </Panel>

      <Panel title="Support page">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Support title">
            <TextInput
              value={content.support.title}
              onChange={(e) => patch('support', { title: e.target.value })}
            />
          </Field>
          <Field label="Support e-mail">
            <TextInput
              type="email"
              value={content.support.email}
              onChange={(e) => patch('support', { email: e.target.value })}
            />
          </Field>
          <div className="sm:col-span-2">
            <Field label="Support subtitle">
              <TextArea
                className="min-h-20 font-sans"
                value={content.support.subtitle}
                onChange={(e) => patch('support', { subtitle: e.target.value })}
              />
            </Field>
          </div>
          <Field label="Response time">
            <TextInput
              value={content.support.response}
              onChange={(e) => patch('support', { response: e.target.value })}
            />
          </Field>
        </div>
        <h3 className="mt-6 mb-3 font-semibold text-fg">Sections</h3>
        <ul className="flex flex-col gap-4">
          {sections.map((section, i) => (
            <li
              key={i}
              className="grid gap-3 rounded-xl border border-line p-3 sm:grid-cols-[1fr_10rem_auto]"
            >
              <Field label={`Section ${i + 1} title`}>
                <TextInput value={section.title} onChange={(e) => setSection(i, { title: e.target.value })} />
              </Field>
              <Field label="Icon">
                <select
                  value={section.icon}
                  onChange={(e) => setSection(i, { icon: e.target.value as (typeof supportIcons)[number] })}
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
                  aria-label={`Remove section ${i + 1}`}
                  onClick={() => patch('support', { sections: sections.filter((_, j) => j !== i) })}
                >
                  <Trash2 className="size-4 text-red-400" aria-hidden />
                </Button>
              </div>
              <div className="sm:col-span-3">
                <Field label={`Section ${i + 1} description`}>
                  <TextArea
                    className="min-h-16 font-sans"
                    value={section.description}
                    onChange={(e) => setSection(i, { description: e.target.value })}
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
              patch('support', { sections: [...sections, { title: '', description: '', icon: 'mail' }] })
            }
          >
            <Plus className="size-4" aria-hidden />
            Add section
          </Button>
        )}
      </Panel>

      <div className="flex justify-end">
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : 'Save Content'}
        </Button>
      </div>
    </form>
  )
}
