import { Lock, Mail, Rocket, Zap } from 'lucide-react'
import { type MessageId, useT } from '../../../i18n/i18n'
import { useAcceptedNetworks } from '../../../lib/api/get-networks'

const items = [
  { icon: Zap, title: 'delivery.processing.title', text: 'delivery.processing.text' },
  { icon: Rocket, title: 'delivery.quick.title', text: 'delivery.quick.text' },
  { icon: Mail, title: 'delivery.email.title', text: 'delivery.email.text' },
  { icon: Lock, title: 'delivery.secure.title', text: 'delivery.secure.text' },
] as const satisfies { icon: unknown; title: MessageId; text: MessageId }[]

export function DeliveryFeatures() {
  const t = useT()
  const accepted = useAcceptedNetworks()
  return (
    <section aria-labelledby="delivery-title" className="mx-auto mt-24 max-w-7xl px-4 sm:px-6">
      <div className="rounded-3xl border border-line bg-gradient-to-br from-card to-background p-8 sm:p-12">
        <h2 id="delivery-title" className="text-center text-3xl font-bold tracking-tight text-fg">
          {t('delivery.title')}
        </h2>
        <p className="mx-auto mt-3 max-w-xl text-center text-muted">
          {accepted ? t('delivery.subtitle.several', accepted) : t('delivery.subtitle')}
        </p>
        <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {items.map(({ icon: Icon, title, text }) => (
            <div key={title} className="rounded-2xl border border-line bg-background/40 p-6">
              <span className="flex size-11 items-center justify-center rounded-xl bg-primary/15 text-primary">
                <Icon className="size-5" aria-hidden />
              </span>
              <h3 className="mt-4 font-semibold text-fg">{t(title)}</h3>
              <p className="mt-1.5 text-sm leading-relaxed text-muted">{t(text)}</p>
            </div>
          ))}
        </div>
      </div>
    </section>
  )
}
