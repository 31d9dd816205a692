import { Loader2, Mail, Send } from 'lucide-react'
import { ORDER_LINK_MINUTES, requestOrderLinksInputSchema } from '../../../shared/order-links'
import { type MessageId, useT } from '../../i18n/i18n'
import { useRequestOrderLinks } from '../../lib/api/request-order-links'
import { useSchemaForm } from '../../lib/form'
import { Button } from '../ui/button'

// "E-mail me my orders" (on the support page, the dashboard and the order-links page): the shop
// answers every address the same way, so the page never says whether it has orders; the e-mail,
// when there are some, brings a one-time link to them.

export function EmailMyOrders({ title = 'orderLinks.title' }: { title?: MessageId }) {
  const t = useT()
  const send = useRequestOrderLinks()
  const form = useSchemaForm({
    schema: requestOrderLinksInputSchema,
    initial: { p_email: '' },
    labels: { p_email: t('orderLinks.email') },
    onValid: ({ p_email }) => {
      if (!send.isPending) send.mutate(p_email)
    },
  })
  return (
    <section
      aria-labelledby="order-links-title"
      className="rounded-2xl border border-line bg-card p-5 text-left sm:p-6"
    >
      <h2 id="order-links-title" className="text-base font-semibold text-fg">
        {t(title)}
      </h2>
      <p className="mt-1 text-sm text-muted">{t('orderLinks.intro')}</p>
      <form {...form.formProps} className="mt-4 flex flex-col gap-2 sm:flex-row">
        <label htmlFor="order-links-email" className="sr-only">
          {t('orderLinks.email')}
        </label>
        <div className="relative min-w-0 flex-1">
          <Mail
            className="pointer-events-none absolute top-1/2 left-3.5 size-4 -translate-y-1/2 text-muted"
            aria-hidden
          />
          <input
            id="order-links-email"
            type="email"
            autoComplete="email"
            inputMode="email"
            maxLength={254}
            placeholder="you@example.com"
            {...form.field('p_email')}
            className="w-full rounded-xl border border-line bg-background py-2.5 pr-4 pl-10 text-sm text-fg placeholder:text-muted/60 focus:border-primary focus:outline-none aria-[invalid]:border-red-500"
          />
        </div>
        <Button type="submit" disabled={send.isPending} aria-busy={send.isPending}>
          {send.isPending ? (
            <Loader2 className="size-4 animate-spin" aria-hidden />
          ) : (
            <Send className="size-4" aria-hidden />
          )}
          {t('orderLinks.send')}
        </Button>
      </form>
      {form.errors.p_email && (
        <p id={form.errorId('p_email')} role="alert" className="mt-2 text-sm text-red-400">
          {form.errors.p_email}
        </p>
      )}
      {send.isSuccess && (
        <p
          role="status"
          className="mt-3 rounded-xl border border-emerald-500/30 bg-emerald-500/10 p-3 text-sm text-fg"
        >
          {t('orderLinks.sent', { minutes: ORDER_LINK_MINUTES })}
        </p>
      )}
      {send.isError && (
        <p role="alert" className="mt-3 text-sm text-red-400">
          {t('orderLinks.tooMany')}
        </p>
      )}
    </section>
  )
}
