import { X } from 'lucide-react'
import { type ReactNode, useEffect, useRef, useState } from 'react'
import { chainNames } from '../../../shared/networks'
import { isPaidStatus } from '../../../shared/order-status'
import { Button } from '../../components/ui/button'
import { EmailAddress } from '../../components/ui/email-address'
import { Msg, useT } from '../../i18n/i18n'
import { type CheckoutState, paymentConfirming } from '../../lib/checkout-store'
import { toast } from '../../lib/toast'
import { type OrderStatus, useOrderStatus } from './api/get-order-status'
import { useCancelOrder } from './api/payment-mutations'
import { CancelPaymentDialog } from './components/cancel-payment-dialog'
import { Countdown } from './components/countdown'
import {
  AmountSummary,
  PaidPanel,
  PaymentTips,
  remainingOf,
  ScanPanel,
  UnderpaidNotice,
  WatchStatus,
} from './components/payment-panels'
import { EarlierPaymentNotice } from './components/sighting-status'
import { TxHashForm } from './components/tx-hash-form'

/** After this long with nothing seen, the page points the buyer at the transaction-hash form. */
const NUDGE_AFTER_MS = 5 * 60_000

export type ActiveCheckout = CheckoutState & { orderId: string; walletAddress: string }

export interface PaymentViewProps {
  state: ActiveCheckout
  /**
   * The invoice whose hosted page this is: its id watches the order (it holds no order secret), and
   * the buyer cannot cancel the seller's invoice here.
   */
  invoiceId?: string
  /** The invoice was paid before the page opened. */
  initiallyPaid?: boolean
  /** Once, when the order is found paid. */
  onPaid(status: OrderStatus): void
  /** The order ended unpaid (cancelled, by the buyer here or elsewhere). */
  onCancelled(): void
  /** Under the paid panel: what comes next on this page. */
  afterPaid?: ReactNode
  /** What is being paid for, as the seller named it (an invoice's itemDesc). */
  item?: string | null
}

/**
 * The payment page: where to pay, how much, what the shop sees of the payment, and Payment
 * confirmed. The storefront's /payment feeds it the browser's checkout; an invoice's hosted page
 * (/invoice/{id}) feeds it the invoice's order. One page, so the two never drift.
 */
export function PaymentView({
  state,
  invoiceId,
  initiallyPaid = false,
  onPaid,
  onCancelled,
  afterPaid,
  item,
}: PaymentViewProps) {
  const t = useT()
  const leaving = useRef(false)
  const [cancelOpen, setCancelOpen] = useState(false)
  const cancel = useCancelOrder()
  const [paid, setPaid] = useState(initiallyPaid)
  const status = useOrderStatus(paid ? null : state.orderId, invoiceId)

  const data = status.data
  // biome-ignore lint/correctness/useExhaustiveDependencies: reacts to a new answer only
  useEffect(() => {
    if (!data || paid || leaving.current) return
    if (isPaidStatus(data.status)) {
      setPaid(true)
      onPaid(data)
    } else if (data.status === 'cancelled') {
      leaving.current = true
      // The storefront's buyer is told the cart is kept; an invoice's page says what became of it.
      if (invoiceId === undefined) toast.error(t('payment.cancelled'), { id: 'order-cancelled' })
      onCancelled()
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

  function confirmCancel() {
    cancel.mutate(state.orderId, {
      onSettled: () => {
        leaving.current = true
        setCancelOpen(false)
        onCancelled()
      },
    })
  }

  const total = state.total ?? 0
  const received = data?.amount_received ?? 0
  const underpaid = data?.status === 'pending' && received > 0 && received < total
  // Paid in part: the QR code, the wallet link and the amount to send ask for the rest alone.
  const remaining = paid ? null : remainingOf(data)
  // An order on an EVM network; null: TRON, shown as it always was.
  const network = state.network
  const networkName = network ? chainNames[network.chain] : undefined

  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6 sm:py-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-fg sm:text-3xl">{t('payment.title')}</h1>
          <p className="mt-1 text-sm text-muted">
            {state.email ? (
              <Msg
                id="payment.order"
                values={{ id: state.orderId.slice(0, 8), email: <EmailAddress email={state.email} /> }}
                components={{ 0: <span className="font-mono" /> }}
              />
            ) : (
              <Msg
                id="invoice.order"
                values={{ id: state.orderId.slice(0, 8) }}
                components={{ 0: <span className="font-mono" /> }}
              />
            )}
          </p>
          {item && <p className="mt-1 text-sm text-fg">{t('invoice.item', { item })}</p>}
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
        <PaidPanel email={state.email} received={data?.amount_received ?? 0} total={total}>
          {afterPaid}
        </PaidPanel>
      ) : (
        <div className="mt-8 grid grid-cols-1 gap-6 lg:grid-cols-[1fr_1.1fr]">
          <ScanPanel address={state.walletAddress} network={network} remaining={remaining} />

          <section
            aria-labelledby="amount-title"
            className="flex flex-col gap-6 rounded-2xl border border-line bg-card p-5 sm:p-8"
          >
            <AmountSummary state={state} remaining={remaining} />

            {underpaid && <UnderpaidNotice received={received} total={total} shortfall={data?.shortfall} />}

            <WatchStatus paid={paid} status={data} total={total} network={networkName} />

            <PaymentTips email={state.email} network={network} remaining={remaining} />

            <TxHashForm
              orderId={state.orderId}
              chain={network?.chain}
              onConfirmed={() => void status.refetch()}
              nudge={waitedLong && nothingSeen}
            />

            {invoiceId === undefined && (
              <Button variant="secondary" className="mt-auto self-start" onClick={() => setCancelOpen(true)}>
                <X className="size-4" aria-hidden /> {t('payment.cancel')}
              </Button>
            )}
          </section>
        </div>
      )}

      {invoiceId === undefined && (
        <CancelPaymentDialog
          open={cancelOpen}
          busy={cancel.isPending}
          onConfirm={confirmCancel}
          onClose={() => setCancelOpen(false)}
        />
      )}
    </div>
  )
}
