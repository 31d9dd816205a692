import { Network } from 'lucide-react'
import { chainNames, tokenStandards, unitsToDecimal } from '../../../../shared/networks'
import { CopyField } from '../../../components/ui/copy-field'
import { useFormat, useT } from '../../../i18n/i18n'
import type { OrderNetwork } from '../../../lib/checkout-store'
import type { Remaining } from './payment-panels'

// The payment page's parts for an order paid on an EVM network: the amount in the token's own
// decimals and the networks on which a payment to the address is credited.

/** The exact amount, trimmed to cents where the rest are zeros ("25.00", not "25.000000000000000000"). */
export function exactAmount(network: OrderNetwork): string {
  const full = unitsToDecimal(network.amountUnits, network.tokenDecimals)
  if (network.tokenDecimals <= 2) return full
  return full.replace(/(\.\d\d\d*?)0+$/, '$1')
}

/**
 * A token amount as the page's big figure ("0.000000000000000001 USDT"): a long amount breaks
 * between its digits on a narrow screen, never inside the token's symbol.
 */
export function TokenFigure({ text }: { text: string }) {
  const at = text.lastIndexOf('\u00a0')
  if (at < 0) return <span className="break-all">{text}</span>
  return (
    <>
      <span className="break-all">{text.slice(0, at)}</span>
      {'\u00a0'}
      <span className="whitespace-nowrap">{text.slice(at + 1)}</span>
    </>
  )
}

/**
 * The amount to send: the total in the token's decimals, or, paid in part, exactly what is still
 * missing (the server's shortfall, rounded up to the token's base unit) and said to be the rest.
 */
export function EvmAmount({
  network,
  total,
  remaining = null,
}: {
  network: OrderNetwork
  total: number
  remaining?: Remaining | null
}) {
  const t = useT()
  const { usd, token } = useFormat()
  const name = chainNames[network.chain]
  const amount = remaining ? remaining.amount : exactAmount(network)
  const say = { amount: token(amount, network.token), network: name, standard: tokenStandards[network.chain] }
  return (
    <div>
      <h2 id="amount-title" className="text-sm font-medium text-muted">
        {remaining
          ? t('payment.evm.remainingTitle', { token: network.token, network: name })
          : t('payment.evm.amount', { token: network.token, network: name })}
      </h2>
      <p className="mt-1 text-4xl font-bold tracking-tight text-fg tabular-nums" data-testid="pay-amount">
        {remaining ? <TokenFigure text={token(amount, network.token)} /> : usd(total)}
      </p>
      <p className="mt-1 text-sm text-muted">
        {remaining ? t('payment.evm.sendRemaining', say) : t('payment.evm.sendExactly', say)}
      </p>
      <div className="mt-4 rounded-xl border border-line bg-white/[0.02] p-4">
        <CopyField
          label={
            remaining
              ? t('payment.evm.remainingField', { token: network.token })
              : t('payment.evm.amountField', { token: network.token })
          }
          copyLabel={
            remaining
              ? t('payment.evm.remainingCopy', { token: network.token })
              : t('payment.evm.amountCopy', { token: network.token })
          }
          value={amount}
          copiedMessage={t('payment.evm.amountCopied')}
          failedMessage={t('payment.evm.amountCopyFailed')}
        />
        <p className="mt-2 text-xs text-muted" data-testid="token-decimals">
          {t('payment.evm.decimals', {
            token: network.token,
            network: name,
            decimals: network.tokenDecimals,
          })}
        </p>
      </div>
    </div>
  )
}

export function WatchedNetworks({ network }: { network: OrderNetwork }) {
  const t = useT()
  if (network.watched.length === 0) return null
  return (
    <div className="rounded-xl border border-line bg-white/[0.02] p-4 text-sm" data-testid="watched-networks">
      <p className="flex items-center gap-2 font-medium text-fg">
        <Network className="size-4 shrink-0 text-primary" aria-hidden />
        {t('payment.evm.watched')}
      </p>
      <ul className="mt-2 flex flex-wrap gap-2">
        {network.watched.map((w) => (
          <li
            key={w.chain}
            className="rounded-lg border border-line bg-background px-2.5 py-1 text-xs text-fg"
          >
            {w.tokens.join(', ')} · {chainNames[w.chain]}
          </li>
        ))}
      </ul>
    </div>
  )
}
