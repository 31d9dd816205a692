import { X } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { chainNames } from '../../../shared/networks'
import { isPaidStatus } from '../../../shared/order-status'
import { Button } from '../../components/ui/button'
import { EmailAddress } from '../../components/ui/email-address'
import { Msg, useT } from '../../i18n/i18n'
import { cart, useCartItems } from '../../lib/cart-store'
import { checkout, paymentConfirming, paymentSuccess, useCheckout } from '../../lib/checkout-store'
import { toast } from '../../lib/toast'
import { useOrderStatus } from './api/get-order-status'
import { useCancelOrder } from './api/payment-mutations'
import { CancelPaymentDialog } from './components/cancel-payment-dialog'
import { Countdown } from './components/countdown'
import {
  AmountSummary,
  PaidPanel,
  PaymentTips,
  ScanPanel,
  UnderpaidNotice,
  WatchStatus,
} from './components/payment-panels'
import { EarlierPaymentNotice } from './components/sighting-status'
import { TxHashForm } from './components/tx-hash-form'

const REDIRECT_AFTER_PAID_MS = 3_000
/** After this long with nothing seen, the page points the buyer at the transaction-hash form. */
const NUDGE_AFTER_MS = 5 * 60_000

export function PaymentPage() {
  const t = useT()
  const state = useCheckout()
  const lines = useCartItems()
  const navigate = useNavigate()
  const leaving = useRef(false)
  const [cancelOpen, setCancelOpen] = useState(false)
  const cancel = useCancelOrder()
  const [paid, setPaid] = useState(false)
  const status = useOrderStatus(paid ? null : state.orderId)

  // Entry rules of the payment page. Only on entry: later changes (paid, cancelled,
  // expired) are handled by whatever made them, which also decides where the buyer goes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: entry only
  useEffect(() => {
    if (!state.isActive || !state.walletAddress) {
      navigate('/checkout', { replace: true })
    } else if (lines.length === 0) {
      checkout.reset()
      navigate('/', { replace: true })
    }
  }, [])

  const data = status.data
  // biome-ignore lint/correctness/useExhaustiveDependencies: reacts to a new answer only
  useEffect(() => {
    if (!data || paid || leaving.current) return
    if (isPaidStatus(data.status)) {
      setPaid(true)
      paymentSuccess.record(data.amount_received > 0 ? data.amount_received : data.total, data.access_token)
      toast.success(t('payment.confirmedRedirecting'), {
        id: 'payment-confirmed',
        duration: REDIRECT_AFTER_PAID_MS,
      })
      window.setTimeout(() => {
        leaving.current = true
        cart.clear()
        checkout.reset()
        navigate('/', { replace: true })
      }, REDIRECT_AFTER_PAID_MS)
    } else if (data.status === 'cancelled') {
      leaving.current = true
      checkout.reset()
      toast.error(t('payment.cancelled'), {
        id: 'order-cancelled',
      })
      navigate('/cart', { replace: true })
    }
  }, [data])

  // A transfer seen and being confirmed: the window's end is no alarm meanwhile (the server settles
  // or expires the order by chain time, and this page follows its answer).
  const sightings = !paid && data?.status === 'pending' ? data.sightings : null
  const confirming = sightings?.confirming ?? null
  const isConfirming = confirming !== null
  useEffect(() => {
    paymentConfirming.set(isConfirming ? state.orderId : null)
    return () => paymentConfirming.set(null)
  }, [isConfirming, state.orderId])

  // Several minutes with nothing seen: the hash form opens (it records a payment at once, even one a
  // contract made that the shop's reads find only later).
  const nothingSeen =
    !paid && data?.status === 'pending' && (data.amount_received ?? 0) === 0 && !isConfirming
  const nudgeAt = (state.startTime ?? Date.now()) + NUDGE_AFTER_MS
  const [waitedLong, setWaitedLong] = useState(() => Date.now() >= nudgeAt)
  useEffect(() => {
    if (waitedLong) return
    const timer = window.setTimeout(() => setWaitedLong(true), Math.max(0, nudgeAt - Date.now()))
    return () => window.clearTimeout(timer)
  }, [nudgeAt, waitedLong])

  // A failed check says so and the watch goes on.
  useEffect(() => {
    if (status.errorUpdateCount > 0) {
      toast.error(t('payment.statusError'), { id: 'status-error' })
    }
  }, [status.errorUpdateCount, t])

  if (!state.isActive || !state.walletAddress || !state.orderId) return null

  function confirmCancel() {
    cancel.mutate(state.orderId as string, {
      onSettled: () => {
        leaving.current = true
        setCancelOpen(false)
        checkout.reset()
        navigate('/cart', { replace: true })
      },
    })
  }

  const total = state.total ?? 0
  const received = data?.amount_received ?? 0
  const underpaid = data?.status === 'pending' && received > 0 && received < total
  // An order on an EVM network; null: TRON, shown as it always was.
  const network = state.network
  const networkName = network ? chainNames[network.chain] : undefined

  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6 sm:py-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-fg sm:text-3xl">{t('payment.title')}</h1>
          <p className="mt-1 text-sm text-muted">
            <Msg
              id="payment.order"
              values={{ id: state.orderId.slice(0, 8), email: <EmailAddress email={state.email} /> }}
              components={{ 0: <span className="font-mono" /> }}
            />
          </p>
        </div>
        {!paid && <Countdown state={state} confirming={isConfirming} />}
      </div>

      {state.earlierConfirming && !paid && (
        <div className="mt-6">
          <EarlierPaymentNotice />
        </div>
      )}

      {paid ? (
        // Paid: the instructions (address, amount to send, Cancel) are gone, and nothing invites a second payment.
        <PaidPanel email={state.email} received={data?.amount_received ?? 0} total={total} />
      ) : (
        <div className="mt-8 grid grid-cols-1 gap-6 lg:grid-cols-[1fr_1.1fr]">
          <ScanPanel address={state.walletAddress} network={network} />

          <section
            aria-labelledby="amount-title"
            className="flex flex-col gap-6 rounded-2xl border border-line bg-card p-5 sm:p-8"
          >
            <AmountSummary state={state} />

            {underpaid && <UnderpaidNotice received={received} total={total} shortfall={data?.shortfall} />}

            <WatchStatus paid={paid} status={data} total={total} network={networkName} />

            <PaymentTips email={state.email} network={network} />

            <TxHashForm
              orderId={state.orderId}
              onConfirmed={() => void status.refetch()}
              nudge={waitedLong && nothingSeen}
            />

            <Button variant="secondary" className="mt-auto self-start" onClick={() => setCancelOpen(true)}>
              <X className="size-4" aria-hidden /> {t('payment.cancel')}
            </Button>
          </section>
        </div>
      )}

      <CancelPaymentDialog
        open={cancelOpen}
        busy={cancel.isPending}
        onConfirm={confirmCancel}
        onClose={() => setCancelOpen(false)}
      />
    </div>
  )
}
