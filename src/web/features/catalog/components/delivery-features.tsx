import { Lock, Mail, Rocket, Zap } from 'lucide-react'

const items = [
  {
    icon: Zap,
    title: 'Instant Processing',
    text: 'Your order is confirmed as soon as the payment lands on chain.',
  },
  {
    icon: Rocket,
    title: 'Quick Delivery',
    text: 'Product keys appear on screen the moment payment is confirmed.',
  },
  {
    icon: Mail,
    title: 'Email Delivery',
    text: 'Keys and your private dashboard link are also sent by e-mail.',
  },
  {
    icon: Lock,
    title: 'Secure Access',
    text: 'A private dashboard link only you receive, no account needed.',
  },
]

export function DeliveryFeatures() {
  return (
    <section aria-labelledby="delivery-title" className="mx-auto mt-24 max-w-7xl px-4 sm:px-6">
      <div className="rounded-3xl border border-line bg-gradient-to-br from-card to-background p-8 sm:p-12">
        <h2 id="delivery-title" className="text-center text-3xl font-bold tracking-tight text-fg">
          Instant Digital Delivery
        </h2>
        <p className="mx-auto mt-3 max-w-xl text-center text-muted">
          Pay once with USDT-TRC20 or TRX and start using your software within minutes.
        </p>
        <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {items.map(({ icon: Icon, title, text }) => (
            <div key={title} className="rounded-2xl border border-line bg-background/40 p-6">
              <span className="flex size-11 items-center justify-center rounded-xl bg-primary/15 text-primary">
                <Icon className="size-5" aria-hidden />
              </span>
              <h3 className="mt-4 font-semibold text-fg">{title}</h3>
              <p className="mt-1.5 text-sm leading-relaxed text-muted">{text}</p>
            </div>
          ))}
        </div>
      </div>
    </section>
  )
}
