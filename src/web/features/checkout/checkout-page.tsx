import { ArrowRight, Loader2, Lock, Mail, Tag, X } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { z } from 'zod'
import { createOrderInputSchema, discountCodeSchema } from '../../../shared/checkout'
import { centsToDollars } from '../../../shared/money'
import { type NetworkOption, networkOptions } from '../../../shared/networks'
import { Button } from '../../components/ui/button'
import { ProductImage } from '../../components/ui/product-media'
import { knownMessage, useFormat, useLocale, useT } from '../../i18n/i18n'
import { cartTotalCents, useCartItems } from '../../lib/cart-store'
import { checkout, useCheckout } from '../../lib/checkout-store'
import { useSchemaForm } from '../../lib/form'
import { RpcError } from '../../lib/rpc-client'
import { toast } from '../../lib/toast'
import { useCatalogSync } from '../../lib/use-catalog-sync'
import { useDiscountCheck } from './api/check-discount'
import { CheckoutError, networkOfOrder, useCreateOrder } from './api/create-order'
import { usePaymentNetworks } from './api/get-networks'
import { NetworkChoice, optionKey } from './components/network-choice'

/** The checkout form checks the e-mail with the order call's own rule. */
const checkoutFormSchema = createOrderInputSchema.pick({ p_email: true })
/** The discount field checks the code's shape with the server's rule; the server checks the rest. */
const discountFormSchema = z.object({ code: discountCodeSchema })

function newIdempotencyKey(): string {
  return crypto.randomUUID()
}

export function CheckoutPage() {
  const t = useT()
  const { usd } = useFormat()
  const locale = useLocale()
  const lines = useCartItems()
  const state = useCheckout()
  const navigate = useNavigate()
  useCatalogSync()
  const create = useCreateOrder()
  // The network and token the buyer pays with; with one on offer (TRON alone) there is nothing to pick.
  const options = networkOptions(usePaymentNetworks())
  const [picked, setPicked] = useState<NetworkOption | null>(null)
  const choice = options.find((o) => picked && optionKey(o) === optionKey(picked)) ?? options[0]
  // Still busy after success: the page is leaving for /payment.
  const busy = create.isPending || create.isSuccess
  // One key per cart and e-mail: a retry of the same attempt never makes two orders.
  const attemptKey = useRef(newIdempotencyKey())
  const form = useSchemaForm({
    schema: checkoutFormSchema,
    initial: { p_email: state.email },
    message: () => t('checkout.emailInvalid'),
    onValid: ({ p_email }) => placeOrder(p_email),
  })
  const email = form.values.p_email
  // The code the buyer applied; the server says what it takes off this cart (or why it does not).
  const [applied, setApplied] = useState<string | null>(null)
  const check = useDiscountCheck(applied, lines)
  const accepted = check.data?.success ? check.data : null
  const refusal = check.data && !check.data.success ? check.data.error : check.error?.message
  const codeForm = useSchemaForm({
    schema: discountFormSchema,
    initial: { code: '' },
    labels: { code: t('discount.label') },
    onValid: ({ code }) => setApplied(code),
  })
  const choiceKey = choice ? optionKey(choice) : ''
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new cart, e-mail or network is a new attempt
  useEffect(() => {
    attemptKey.current = newIdempotencyKey()
  }, [lines, email, choiceKey])

  useEffect(() => {
    if (state.isActive) navigate('/payment', { replace: true })
    else if (lines.length === 0 && !busy) navigate('/', { replace: true })
  }, [state.isActive, lines.length, busy, navigate])

  if (lines.length === 0) return null
  const subtotalCents = cartTotalCents(lines)
  const totalCents = accepted ? accepted.total_cents : subtotalCents

  function placeOrder(value: string) {
    if (busy || check.isFetching) return
    if (totalCents <= 0) {
      toast.error(t('checkout.invalidTotal'), { id: 'checkout-error' })
      return
    }
    create.mutate(
      {
        email: value,
        lines,
        total: centsToDollars(totalCents),
        idempotencyKey: attemptKey.current,
        locale,
        ...(accepted ? { discountCode: accepted.code } : {}),
        ...(choice && choice.chain !== 'tron' ? { network: choice } : {}),
      },
      {
        onSuccess(order) {
          checkout.start({
            email: value,
            orderId: order.order_id,
            orderSecret: order.order_secret,
            walletAddress: order.wallet_address,
            windowEndsAt: Date.parse(order.window_ends_at),
            total: order.total,
            trxAmount: order.trx_amount ?? null,
            trxRate: order.trx_rate ?? null,
            discountCode: order.discount_code ?? null,
            discount: order.discount ?? null,
            network: networkOfOrder(order),
          })
          navigate('/payment')
        },
        onError(err) {
          // The key stays: if the order was made but its answer lost, a retry gets that same order.
          // A network failure has already shown the default connection toast.
          if (err instanceof RpcError && err.network) return
          toast.error(
            err instanceof CheckoutError ? knownMessage(t, err.message) : t('checkout.createFailed'),
            {
              id: 'checkout-error',
            },
          )
        },
      },
    )
  }

  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-fg">{t('checkout.title')}</h1>
      <div className="mt-8 grid grid-cols-1 gap-8 lg:grid-cols-[1fr_24rem]">
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
              value={email}
              onChange={(e) => form.set('p_email', e.target.value)}
              {...form.control('p_email')}
              className="w-full rounded-xl border border-line bg-background py-3 pr-4 pl-10 text-fg placeholder:text-muted/60 focus:border-primary focus:outline-none aria-[invalid]:border-red-500"
            />
          </div>
          {form.errors.p_email && (
            <p id={form.errorId('p_email')} role="alert" className="mt-2 text-sm text-red-400">
              {form.errors.p_email}
            </p>
          )}
          {options.length > 1 && choice && (
            <NetworkChoice options={options} value={choice} onChange={setPicked} disabled={busy} />
          )}
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
            {options.length > 1 ? t('checkout.network.secure') : t('order.securePayment')}
          </p>
        </form>
        <aside aria-labelledby="summary-title" className="h-fit rounded-2xl border border-line bg-card p-6">
          <h2 id="summary-title" className="text-lg font-semibold text-fg">
            {t('order.summary')}
          </h2>
          <ul className="mt-4 space-y-4">
            {lines.map((line) => (
              <li key={line.product.id} className="flex items-center gap-3">
                <ProductImage src={line.product.image} alt="" className="size-12 shrink-0 rounded-lg" />
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium text-fg">{line.product.name}</p>
                  <p className="text-xs text-muted">{t('checkout.qty', { count: line.quantity })}</p>
                </div>
                <span className="text-sm font-semibold tabular-nums text-fg">
                  {usd(line.product.price * line.quantity)}
                </span>
              </li>
            ))}
          </ul>
          <form {...codeForm.formProps} className="mt-5 border-t border-line pt-4">
            <label htmlFor="discount-code" className="block text-sm font-medium text-fg">
              {t('discount.label')}
            </label>
            <div className="mt-2 flex gap-2">
              <div className="relative min-w-0 flex-1">
                <Tag
                  className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted"
                  aria-hidden
                />
                <input
                  id="discount-code"
                  name="discount-code"
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  maxLength={40}
                  value={codeForm.values.code}
                  onChange={(e) => codeForm.set('code', e.target.value)}
                  {...codeForm.control('code')}
                  {...(!codeForm.errors.code && refusal
                    ? { 'aria-invalid': true, 'aria-describedby': 'discount-refusal' }
                    : {})}
                  className="w-full rounded-xl border border-line bg-background py-2.5 pr-3 pl-9 font-mono text-sm uppercase text-fg placeholder:font-sans placeholder:normal-case placeholder:text-muted/60 focus:border-primary focus:outline-none aria-[invalid]:border-red-500"
                  placeholder={t('discount.placeholder')}
                />
              </div>
              <Button
                type="submit"
                variant="secondary"
                disabled={check.isFetching}
                aria-busy={check.isFetching}
              >
                {check.isFetching ? <Loader2 className="size-4 animate-spin" aria-hidden /> : null}
                {t('discount.apply')}
              </Button>
            </div>
            {codeForm.errors.code ? (
              <p id={codeForm.errorId('code')} role="alert" className="mt-2 text-sm text-red-400">
                {codeForm.errors.code}
              </p>
            ) : refusal && applied ? (
              <p id="discount-refusal" role="alert" className="mt-2 text-sm text-red-400">
                {refusal}
              </p>
            ) : null}
          </form>
          {accepted && (
            <dl className="mt-4 space-y-2 text-sm">
              <div className="flex justify-between text-muted">
                <dt>{t('order.subtotal')}</dt>
                <dd className="tabular-nums">{usd(centsToDollars(accepted.subtotal_cents))}</dd>
              </div>
              <div className="flex items-center justify-between text-emerald-400">
                <dt className="flex items-center gap-2">
                  {t('order.discount')}{' '}
                  <span className="rounded-md bg-emerald-500/15 px-1.5 py-0.5 font-mono text-xs">
                    {accepted.code}
                  </span>
                  <button
                    type="button"
                    className="rounded p-0.5 text-muted hover:text-fg"
                    aria-label={t('discount.remove', { code: accepted.code })}
                    onClick={() => {
                      setApplied(null)
                      codeForm.reset({ code: '' })
                    }}
                  >
                    <X className="size-3.5" aria-hidden />
                  </button>
                </dt>
                <dd className="tabular-nums" data-testid="checkout-discount">
                  −{usd(centsToDollars(accepted.discount_cents))}
                </dd>
              </div>
            </dl>
          )}
          <div className="mt-5 flex justify-between border-t border-line pt-4 text-base font-semibold text-fg">
            <span>{t('order.total')}</span>
            <span className="tabular-nums" data-testid="checkout-total">
              {usd(centsToDollars(totalCents))}
            </span>
          </div>
        </aside>
      </div>
    </div>
  )
}
