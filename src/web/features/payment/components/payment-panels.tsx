import { Clock, Info, Loader2, ShieldCheck, Wallet } from 'lucide-react'
import type { ReactNode } from 'react'
import type { TokenSymbol } from '../../../../shared/chains'
import { chainNames } from '../../../../shared/networks'
import { CopyField } from '../../../components/ui/copy-field'
import { EmailAddress } from '../../../components/ui/email-address'
import { Msg, useFormat, useT } from '../../../i18n/i18n'
import type { OrderNetwork, useCheckout } from '../../../lib/checkout-store'
import type { OrderStatus } from '../api/get-order-status'
import { EvmAmount, TokenFigure, WatchedNetworks } from './evm-payment'
import { DetectedPanel, DroppedNotice, FailedTransfers } from './sighting-status'
import { WalletQr } from './wallet-qr'

// The payment page's parts: where to pay (QR and address), how much (USD, USDT, TRX; or the token on
// an EVM network and the networks that pay the order), what the shop sees of the payment, and the
// tips. `network` is the order's EVM network; null for a TRON order, shown as it always was.

type CheckoutState = ReturnType<typeof useCheckout>

/**
 * What a pending order paid in part still lacks, as the server's status call says it: the amount in
 * the token (rounded up to its base unit), the same in base units, and the payment link asking for
 * exactly that (null on TRON, whose QR code is the address alone).
 */
export interface Remaining {
  token: TokenSymbol
  amount: string
  units: string
  paymentUri: string | null
}

/** The shortfall of a pending order paid in part; null while nothing arrived (or it is paid). */
export function remainingOf(status: OrderStatus | undefined): Remaining | null {
  const shortfall = status?.status === 'pending' ? status.shortfall : null
  if (!shortfall?.missingUnits) return null
  return {
    token: shortfall.token,
    amount: shortfall.missing,
    units: shortfall.missingUnits,
    paymentUri: shortfall.paymentUri ?? null,
  }
}

/**
 * The wallet address as a QR code (the network's payment URI off TRON) and a field to copy. Paid in
 * part, the QR code and the wallet link ask for what is missing, never the total again.
 */
export function ScanPanel({
  address,
  network,
  remaining = null,
}: {
  address: string
  network: OrderNetwork | null
  remaining?: Remaining | null
}) {
  const t = useT()
  const { token } = useFormat()
  const uri = network ? (remaining ? remaining.paymentUri : network.paymentUri) : null
  return (
    <section
      aria-labelledby="scan-title"
      className="flex flex-col items-center rounded-2xl border border-line bg-card p-5 sm:p-8"
    >
      <h2 id="scan-title" className="self-start text-lg font-semibold text-fg">
        {t('payment.scan')}
      </h2>
      <div className="mt-6">
        {network && uri ? (
          <WalletQr
            value={uri}
            level="Q"
            label={
              remaining
                ? t('payment.evm.remainingQr', {
                    amount: token(remaining.amount, remaining.token),
                    network: chainNames[network.chain],
                    address,
                  })
                : t('payment.evm.qr', { token: network.token, network: chainNames[network.chain], address })
            }
          />
        ) : (
          <WalletQr value={address} label={t('payment.qr', { address })} />
        )}
      </div>
      {uri && (
        // The same request as the QR code, for a wallet on this device (Solana Pay, EIP-681 links).
        <a
          href={uri}
          className="mt-4 inline-flex items-center gap-1.5 rounded-lg border border-line px-3 py-1.5 text-sm font-medium text-primary hover:bg-white/[0.04]"
        >
          <Wallet className="size-4" aria-hidden />
          {t('payment.openWallet')}
        </a>
      )}
      {uri && remaining && (
        <p className="mt-3 text-center text-sm text-amber-200" data-testid="remaining-link">
          {t('payment.remainingLink', { amount: token(remaining.amount, remaining.token) })}
        </p>
      )}
      <div className="mt-6 w-full">
        <CopyField
          label={t('payment.wallet')}
          value={address}
          copiedMessage={t('payment.walletCopied')}
          failedMessage={t('payment.walletCopyFailed')}
        />
      </div>
    </section>
  )
}

/**
 * The amount in dollars and USDT, the discount taken, and the TRX amount at the locked rate. Paid in
 * part: what is still missing in the token instead (the TRX amount was for the total).
 */
export function AmountSummary({
  state,
  remaining = null,
}: {
  state: CheckoutState
  remaining?: Remaining | null
}) {
  const t = useT()
  const { usd, token, rate } = useFormat()
  const total = state.total ?? 0
  if (state.network) {
    return (
      <>
        <EvmAmount network={state.network} total={total} remaining={remaining} />
        {state.discountCode && state.discount !== null && (
          <p className="-mt-4 text-sm text-emerald-400">
            {t('payment.discountApplied', { code: state.discountCode, amount: usd(state.discount) })}
          </p>
        )}
        <WatchedNetworks network={state.network} />
      </>
    )
  }
  return (
    <>
      <div>
        <h2 id="amount-title" className="text-sm font-medium text-muted">
          {remaining ? t('payment.remainingTitle') : t('payment.amount')}
        </h2>
        <p className="mt-1 text-4xl font-bold tracking-tight text-fg tabular-nums" data-testid="pay-amount">
          {remaining ? <TokenFigure text={token(remaining.amount, remaining.token)} /> : usd(total)}
        </p>
        <p className="mt-1 text-sm text-muted">
          {remaining
            ? t('payment.sendRemaining', { amount: token(remaining.amount, remaining.token) })
            : t('payment.sendExactly', { amount: token(total, 'USDT') })}
        </p>
        {state.discountCode && state.discount !== null && (
          <p className="mt-1 text-sm text-emerald-400">
            {t('payment.discountApplied', { code: state.discountCode, amount: usd(state.discount) })}
          </p>
        )}
      </div>

      {remaining ? (
        state.trxAmount && (
          <p className="text-xs text-muted" data-testid="trx-total-only">
            {t('payment.remainingNoTrx')}
          </p>
        )
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
    </>
  )
}

/**
 * A payment in part: what arrived and what is missing in the order's token, as the server says it
 * (the missing part rounded up: a buyer who sends it never falls short, nor pays a cent too much).
 */
export function UnderpaidNotice({
  received,
  total,
  shortfall,
}: {
  received: number
  total: number
  shortfall?: OrderStatus['shortfall']
}) {
  const t = useT()
  const { usd, token } = useFormat()
  return (
    <p
      role="status"
      className="rounded-xl border border-amber-500/30 bg-amber-500/10 p-3 text-sm text-amber-200"
    >
      {shortfall
        ? t('payment.underpaid', {
            received: token(shortfall.received, shortfall.token),
            total: token(total.toFixed(2), shortfall.token),
            remaining: token(shortfall.missing, shortfall.token),
          })
        : t('payment.underpaid', {
            received: usd(received),
            total: usd(total),
            remaining: usd(Math.round((total - received) * 100) / 100),
          })}
    </p>
  )
}

/** What the shop sees: a transfer being confirmed, a delay in seeing the chain, or the wait (or paid). */
export function WatchStatus({
  paid,
  status,
  total,
  network,
}: {
  paid: boolean
  status: OrderStatus | undefined
  total: number
  /** The EVM network's name; undefined on TRON. */
  network?: string
}) {
  const t = useT()
  const sightings = !paid && status?.status === 'pending' ? status.sightings : null
  const confirming = sightings?.confirming ?? null
  return (
    <>
      {sightings && <FailedTransfers failed={sightings.failed} network={network} />}
      {confirming ? (
        <DetectedPanel confirming={confirming} total={total} network={network} />
      ) : !paid && status?.detection_delayed ? (
        <div
          role="status"
          aria-live="polite"
          className="flex items-start gap-3 rounded-xl border border-amber-500/30 bg-amber-500/10 px-4 py-3 text-sm text-amber-100"
        >
          <Clock className="mt-0.5 size-5 shrink-0 text-amber-300" aria-hidden />
          <span>
            <strong className="block font-semibold text-amber-200">{t('payment.delayed.title')}</strong>
            {network ? t('payment.evm.delayedBody', { network }) : t('payment.delayed.body')}
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
      {!confirming && sightings?.dropped && <DroppedNotice network={network} />}
    </>
  )
}

/** The paid order, in place of the payment instructions: what was received and where the key goes. */
export function PaidPanel({
  email,
  received,
  total,
  children,
}: {
  email: string
  received: number
  total: number
  /** What follows on this page (an invoice's way back to the seller). */
  children?: ReactNode
}) {
  const t = useT()
  const { usd } = useFormat()
  return (
    <section
      role="status"
      aria-labelledby="paid-title"
      className="mx-auto mt-8 flex max-w-xl flex-col items-center rounded-2xl border border-primary/30 bg-card p-6 text-center sm:p-10"
    >
      <div className="grid size-16 place-items-center rounded-full bg-primary/15">
        <ShieldCheck className="size-9 text-primary" aria-hidden />
      </div>
      <h2 id="paid-title" className="mt-4 text-2xl font-bold text-fg">
        {t('payment.confirmed')}
      </h2>
      <p className="mt-2 text-muted">
        <Msg
          id="success.received"
          values={{ amount: usd(received > 0 ? received : total) }}
          components={{ 0: <span className="font-semibold text-fg" /> }}
        />
      </p>
      {/* An invoice without the buyer's e-mail sends none. */}
      {email && (
        <p className="mt-4 min-w-0 text-sm text-muted">
          <Msg id="payment.tip.email" values={{ email: <EmailAddress email={email} /> }} />
        </p>
      )}
      {children}
    </section>
  )
}

/** How long the chain takes to confirm: TRON's own wording, the EVM network's blocks at its block time, or the chain's finality. */
function confirmTip(t: ReturnType<typeof useT>, network: OrderNetwork | null): string {
  if (!network?.confirm) return t('payment.tip.time')
  const { blocks, seconds } = network.confirm
  const name = chainNames[network.chain]
  if (blocks === null) return t('payment.tipTimeFinal', { seconds: Math.max(1, seconds), network: name })
  return seconds < 90
    ? t('payment.evm.tipTimeSeconds', { seconds: Math.max(1, seconds), blocks, network: name })
    : t('payment.evm.tipTimeMinutes', { minutes: Math.round(seconds / 60), blocks, network: name })
}

export function PaymentTips({
  email,
  network,
  remaining = null,
}: {
  email: string
  network: OrderNetwork | null
  remaining?: Remaining | null
}) {
  const t = useT()
  return (
    <ul className="space-y-2.5 text-sm text-muted">
      <li className="flex gap-2.5">
        <Info className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
        {/* Paid in part on TRON the TRX amount is withdrawn: the tip names the token alone. */}
        {network || remaining
          ? t('payment.evm.tipExact', { token: network?.token ?? remaining?.token ?? 'USDT' })
          : t('payment.tip.exact')}
      </li>
      <li className="flex gap-2.5">
        <Info className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
        {confirmTip(t, network)}
      </li>
      <li className="flex gap-2.5">
        <Info className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
        {t('payment.tip.addressOnly')}
      </li>
      {email && (
        <li className="flex gap-2.5">
          <Info className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
          <span className="min-w-0">
            <Msg id="payment.tip.email" values={{ email: <EmailAddress email={email} /> }} />
          </span>
        </li>
      )}
    </ul>
  )
}
