import { ArrowRight, Loader2, Lock, Mail } from 'lucide-react'
import type { ReactNode } from 'react'
import { Button } from '../../../components/ui/button'
import { useT } from '../../../i18n/i18n'
import type { SchemaForm } from '../../../lib/form'

/** Where the keys go: the buyer's e-mail, the network to pay on (when there is a choice), and the button that places the order. */
export function ContactForm({
  form,
  busy,
  severalNetworks,
  networkChoice,
}: {
  form: SchemaForm<{ p_email: string }>
  busy: boolean
  severalNetworks: boolean
  networkChoice: ReactNode
}) {
  const t = useT()
  return (
    <form
      {...form.formProps}
      className="h-fit rounded-2xl border border-line bg-card p-6 sm:p-8"
      aria-labelledby="contact-title"
    >
      <h2 id="contact-title" className="text-lg font-semibold text-fg">
        {t('checkout.where')}
      </h2>
      <p className="mt-1 text-sm text-muted">{t('checkout.whereText')}</p>
      <label htmlFor="checkout-email" className="mt-6 block text-sm font-medium text-fg">
        {t('checkout.email')}
      </label>
      <div className="relative mt-2">
        <Mail
          className="pointer-events-none absolute top-1/2 left-3.5 size-4 -translate-y-1/2 text-muted"
          aria-hidden
        />
        <input
          id="checkout-email"
          type="email"
          name="email"
          required
          autoComplete="email"
          inputMode="email"
          maxLength={254}
          placeholder={t('checkout.emailPlaceholder')}
          {...form.field('p_email')}
          className="w-full rounded-xl border border-line bg-background py-3 pr-4 pl-10 text-fg placeholder:text-muted/60 focus:border-primary focus:outline-none aria-[invalid]:border-red-500"
        />
      </div>
      {form.errors.p_email && (
        <p id={form.errorId('p_email')} role="alert" className="mt-2 text-sm text-red-400">
          {form.errors.p_email}
        </p>
      )}
      {networkChoice}
      <Button type="submit" className="mt-6 w-full py-3 text-base" disabled={busy} aria-busy={busy}>
        {busy ? (
          <>
            <Loader2 className="size-4 animate-spin" aria-hidden /> {t('checkout.creating')}
          </>
        ) : (
          <>
            {t('checkout.continue')} <ArrowRight className="size-4" aria-hidden />
          </>
        )}
      </Button>
      <p className="mt-4 flex items-center justify-center gap-2 text-xs text-muted">
        <Lock className="size-3.5" aria-hidden />{' '}
        {severalNetworks ? t('checkout.network.secure') : t('order.securePayment')}
      </p>
    </form>
  )
}
