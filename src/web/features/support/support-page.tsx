import { Clock, Mail, MessageCircle, Shield } from 'lucide-react'
import { lazy, type ReactNode, Suspense } from 'react'
import type { SiteContent, SupportIcon } from '../../../shared/site-content'
import { loadBuyMessages, useT } from '../../i18n/i18n'
import { useAfterHydration } from '../../lib/after-hydration'
import { useSiteContent } from '../../lib/api/get-site-content'

const icons: Record<SupportIcon, typeof Mail> = {
  mail: Mail,
  messageCircle: MessageCircle,
  clock: Clock,
  shield: Shield,
}

type Section = SiteContent['support']['sections'][number]

// The form brings the schema library: loaded after the page, so the first load stays small. The
// server leaves its place empty and the browser renders it once the page is hydrated.
const EmailMyOrders = lazy(async () => {
  const [module] = await Promise.all([
    import('../../components/order-links/email-my-orders'),
    loadBuyMessages(),
  ])
  return { default: module.EmailMyOrders }
})

function SectionCard({ section, extra }: { section: Section; extra?: ReactNode }) {
  const Icon = icons[section.icon]
  return (
    <article className="flex flex-col rounded-2xl border border-line bg-card p-6 sm:p-8">
      <span
        data-icon={section.icon}
        className="flex size-12 items-center justify-center rounded-xl bg-primary/15 text-primary"
      >
        <Icon className="size-6" aria-hidden />
      </span>
      <h2 className="mt-5 text-lg font-semibold text-fg">{section.title}</h2>
      <p className="mt-2 leading-relaxed text-muted">{section.description}</p>
      {extra && <div className="mt-4 text-sm font-medium text-primary">{extra}</div>}
    </article>
  )
}

export function SupportPage() {
  const t = useT()
  const { content, isLoading } = useSiteContent()
  const hydrated = useAfterHydration()
  if (isLoading) {
    return (
      <p role="status" className="py-32 text-center text-muted">
        {t('common.loading')}
      </p>
    )
  }
  const { support } = content
  const [first, second, ...rest] = support.sections
  // Extras by position, as the page lays them out.
  const firstRowExtras: ReactNode[] = [
    support.email ? (
      <a key="email" href={`mailto:${support.email}`} className="break-all hover:underline">
        {support.email}
      </a>
    ) : null,
    t('support.available'),
  ]
  const secondRowExtras: ReactNode[] = [support.response, t('support.encryption')]
  return (
    <div className="mx-auto max-w-5xl px-4 py-16 sm:px-6">
      <header className="text-center">
        <h1 className="text-4xl font-bold tracking-tight text-balance text-fg">{support.title}</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-pretty text-muted">{support.subtitle}</p>
      </header>
      <div className="mt-12 grid gap-6 md:grid-cols-2">
        {[first, second].map(
          (s, i) => s && <SectionCard key={`a${i}`} section={s} extra={firstRowExtras[i]} />,
        )}
      </div>
      {rest.length > 0 && (
        <div className="mt-6 grid gap-6 md:grid-cols-2">
          {rest.map((s, i) => (
            <SectionCard key={`b${i}`} section={s} extra={secondRowExtras[i]} />
          ))}
        </div>
      )}
      <div className="mx-auto mt-6 max-w-2xl">
        {hydrated && (
          <Suspense fallback={null}>
            <EmailMyOrders />
          </Suspense>
        )}
      </div>
    </div>
  )
}
