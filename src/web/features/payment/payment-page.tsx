import { Clock, Info, Loader2, ShieldCheck, X } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { chainNames } from '../../../shared/networks'
import { Button } from '../../components/ui/button'
import { CopyField } from '../../components/ui/copy-field'
import { EmailAddress } from '../../components/ui/email-address'
import { Msg, useFormat, useT } from '../../i18n/i18n'
import { cart, useCartItems } from '../../lib/cart-store'
import { checkout, paymentConfirming, paymentSuccess, useCheckout } from '../../lib/checkout-store'
import { toast } from '../../lib/toast'
import { useOrderStatus } from './api/get-order-status'
import { useCancelOrder } from './api/payment-mutations'
import { CancelPaymentDialog } from './components/cancel-payment-dialog'
import { Countdown } from './components/countdown'
import { EvmAmount, WatchedNetworks } from './components/evm-payment'
import { DetectedPanel, DroppedNotice, FailedTransfers } from './components/sighting-status'
import { TxHashForm } from './components/tx-hash-form'
import { WalletQr } from './components/wallet-qr'

const REDIRECT_AFTER_PAID_MS = 3_000

export function PaymentPage() {
  const t = useT()
  const { usd, token, rate } = useFormat()
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
    if (data.status === 'paid' || data.status === 'completed') {
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
        <Countdown state={state} confirming={isConfirming} />
      </div>

      <div className="mt-8 grid grid-cols-1 gap-6 lg:grid-cols-[1fr_1.1fr]">
        <section
          aria-labelledby="scan-title"
          className="flex flex-col items-center rounded-2xl border border-line bg-card p-5 sm:p-8"
        >
          <h2 id="scan-title" className="self-start text-lg font-semibold text-fg">
            {t('payment.scan')}
          </h2>
          <div className="mt-6">
            {network ? (
              <WalletQr
                value={network.paymentUri}
                level="Q"
                label={t('payment.evm.qr', {
                  token: network.token,
                  network: chainNames[network.chain],
                  address: state.walletAddress,
                })}
              />
            ) : (
              <WalletQr
                value={state.walletAddress}
                label={t('payment.qr', { address: state.walletAddress })}
              />
            )}
          </div>
          <div className="mt-6 w-full">
            <CopyField
              label={t('payment.wallet')}
              value={state.walletAddress}
              copiedMessage={t('payment.walletCopied')}
              failedMessage={t('payment.walletCopyFailed')}
            />
          </div>
        </section>

        <section
          aria-labelledby="amount-title"
          className="flex flex-col gap-6 rounded-2xl border border-line bg-card p-5 sm:p-8"
        >
          {network ? (
            <EvmAmount network={network} total={total} />
          ) : (
            <div>
              <h2 id="amount-title" className="text-sm font-medium text-muted">
                {t('payment.amount')}
              </h2>
              <p
                className="mt-1 text-4xl font-bold tracking-tight text-fg tabular-nums"
                data-testid="pay-amount"
              >
                {usd(total)}
              </p>
              <p className="mt-1 text-sm text-muted">
                {t('payment.sendExactly', { amount: token(total, 'USDT') })}
              </p>
              {state.discountCode && state.discount !== null && (
                <p className="mt-1 text-sm text-emerald-400">
                  {t('payment.discountApplied', { code: state.discountCode, amount: usd(state.discount) })}
                </p>
              )}
            </div>
          )}
          {network && state.discountCode && state.discount !== null && (
            <p className="-mt-4 text-sm text-emerald-400">
              {t('payment.discountApplied', { code: state.discountCode, amount: usd(state.discount) })}
            </p>
          )}

          {network ? (
            <WatchedNetworks network={network} />
          ) : state.trxAmount ? (
            <div className="rounded-xl border border-line bg-white/[0.02] p-4">
              <CopyField
                label={t('payment.trx')}
                copyLabel={t('payment.trxCopy')}
                value={state.trxAmount}
                copiedMessage={t('payment.trxCopied')}
                failedMessage={t('payment.trxCopyFailed')}
              />
              <p className="mt-2 text-xs text-muted">
                {t('payment.trxRate', {
                  amount: token(state.trxAmount, 'TRX'),
                  rate: state.trxRate ? rate(state.trxRate) : '—',
                })}
              </p>
            </div>
          ) : (
            <p className="text-xs text-muted" data-testid="trx-unavailable">
              {t('payment.trxUnavailable')}
            </p>
          )}

          {underpaid && (
            <p
              role="status"
              className="rounded-xl border border-amber-500/30 bg-amber-500/10 p-3 text-sm text-amber-200"
            >
              {t('payment.underpaid', {
                received: usd(received),
                total: usd(total),
                remaining: usd(Math.round((total - received) * 100) / 100),
              })}
            </p>
          )}

          {sightings && <FailedTransfers failed={sightings.failed} network={networkName} />}

          {confirming ? (
            <DetectedPanel confirming={confirming} total={total} network={networkName} />
          ) : !paid && data?.detection_delayed ? (
            <div
              role="status"
              aria-live="polite"
              className="flex items-start gap-3 rounded-xl border border-amber-500/30 bg-amber-500/10 px-4 py-3 text-sm text-amber-100"
            >
              <Clock className="mt-0.5 size-5 shrink-0 text-amber-300" aria-hidden />
              <span>
                <strong className="block font-semibold text-amber-200">{t('payment.delayed.title')}</strong>
                {networkName
                  ? t('payment.evm.delayedBody', { network: networkName })
                  : t('payment.delayed.body')}
              </span>
            </div>
          ) : (
            <div
              role="status"
              aria-live="polite"
              className="flex items-center gap-3 rounded-xl border border-primary/25 bg-primary/5 px-4 py-3 text-sm text-fg"
            >
              {paid ? (
                <ShieldCheck className="size-5 text-primary" aria-hidden />
              ) : (
                <Loader2 className="size-5 animate-spin text-primary" aria-hidden />
              )}
              {paid ? t('payment.confirmed') : t('payment.waiting')}
            </div>
          )}
          {!confirming && sightings?.dropped && <DroppedNotice network={networkName} />}

          <ul className="space-y-2.5 text-sm text-muted">
            <li className="flex gap-2.5">
              <Info className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
              {network ? t('payment.evm.tipExact', { token: network.token }) : t('payment.tip.exact')}
            </li>
            <li className="flex gap-2.5">
              <Info className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
              {t('payment.tip.time')}
            </li>
            <li className="flex gap-2.5">
              <Info className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
              {t('payment.tip.addressOnly')}
            </li>
            <li className="flex gap-2.5">
              <Info className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
              <span className="min-w-0">
                <Msg id="payment.tip.email" values={{ email: <EmailAddress email={state.email} /> }} />
              </span>
            </li>
          </ul>

          {!paid && <TxHashForm orderId={state.orderId} onConfirmed={() => void status.refetch()} />}

          <Button
            variant="secondary"
            className="mt-auto self-start"
            onClick={() => setCancelOpen(true)}
            disabled={paid}
          >
            <X className="size-4" aria-hidden /> {t('payment.cancel')}
          </Button>
        </section>
      </div>

      <CancelPaymentDialog
        open={cancelOpen}
        busy={cancel.isPending}
        onConfirm={confirmCancel}
        onClose={() => setCancelOpen(false)}
      />
    </div>
  )
}
