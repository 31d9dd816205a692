import { useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { firstChain } from '../../../shared/chains'
import { createOrderInputSchema } from '../../../shared/checkout'
import { centsToDollars } from '../../../shared/money'
import { type NetworkOption, networkOptions } from '../../../shared/networks'
import { useLocale, useT } from '../../i18n/i18n'
import { usePaymentNetworks } from '../../lib/api/get-networks'
import { cartTotalCents, useCartItems } from '../../lib/cart-store'
import { checkout, useCheckout } from '../../lib/checkout-store'
import { useSchemaForm } from '../../lib/form'
import { RpcError } from '../../lib/rpc-client'
import { toast } from '../../lib/toast'
import { useCatalogSync } from '../../lib/use-catalog-sync'
import { CheckoutError, networkOfOrder, useCreateOrder } from './api/create-order'
import { ContactForm } from './components/contact-form'
import { DiscountCodeForm, useDiscountCode } from './components/discount-code-form'
import { NetworkChoice, optionKey } from './components/network-choice'
import { OrderLines, OrderTotals } from './components/order-summary'

/** The checkout form checks the e-mail with the order call's own rule. */
const checkoutFormSchema = createOrderInputSchema.pick({ p_email: true })

function newIdempotencyKey(): string {
  return crypto.randomUUID()
}

export function CheckoutPage() {
  const t = useT()
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
    errors: { '*': t('checkout.emailInvalid') },
    onValid: ({ p_email }) => placeOrder(p_email),
  })
  const email = form.values.p_email
  const discount = useDiscountCode(lines)
  const { accepted, check } = discount
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
        ...(choice && choice.chain !== firstChain ? { network: choice } : {}),
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
            earlierConfirming: order.earlier_payment_confirming === true,
            network: networkOfOrder(order),
          })
          navigate('/payment')
        },
        onError(err) {
          // The key stays: if the order was made but its answer lost, a retry gets that same order.
          // A network failure has already shown the default connection toast.
          if (err instanceof RpcError && err.network) return
          toast.error(
            err instanceof CheckoutError ? (err.id ? t(err.id) : err.message) : t('checkout.createFailed'),
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
        <ContactForm
          form={form}
          busy={busy}
          severalNetworks={options.length > 1}
          networkChoice={
            options.length > 1 &&
            choice && <NetworkChoice options={options} value={choice} onChange={setPicked} disabled={busy} />
          }
        />
        <aside aria-labelledby="summary-title" className="h-fit rounded-2xl border border-line bg-card p-6">
          <h2 id="summary-title" className="text-lg font-semibold text-fg">
            {t('order.summary')}
          </h2>
          <OrderLines lines={lines} />
          <DiscountCodeForm discount={discount} />
          <OrderTotals discount={discount} totalCents={totalCents} />
        </aside>
      </div>
    </div>
  )
}
