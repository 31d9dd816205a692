import { useState } from 'react'
import type { ChainId } from '../../../../shared/chains'
import { firstChain } from '../../../../shared/chains'
import { chainNames } from '../../../../shared/networks'
import type { ReconcileAnswer, ReconcileRowAnswer } from '../../../../shared/reconcile'
import { Button } from '../../../components/ui/button'
import { useFormat, useT } from '../../../i18n/i18n'
import { inputClass, Panel, TextInput } from '../components/fields'
import { type ReconcilePeriod, useChainCheck, useReconcile } from './api/reconcile'

const DAY_MS = 86_400_000
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/**
 * What each address received in a period on one chain, as the ledger holds it (credited to orders,
 * unmatched), and, on request, what the chain says it received. With more than one chain enabled, a
 * choice of network; amounts keep each token's decimals on that chain.
 */
export function ReconcilePanel() {
  const t = useT()
  const [period, setPeriod] = useState<ReconcilePeriod>(() => ({
    from: isoDay(Date.now() - 30 * DAY_MS),
    to: isoDay(Date.now() + DAY_MS),
    chain: firstChain,
  }))
  const report = useReconcile(period)
  const check = useChainCheck(period)
  const change = (next: Partial<ReconcilePeriod>) => {
    // A check of another period or chain no longer applies.
    check.reset()
    setPeriod((p) => ({ ...p, ...next }))
  }
  const enabled = report.data?.enabled_chains ?? []
  // While another chain or period loads, the previous answer only keeps the network choice shown.
  const shown = report.isPlaceholderData ? undefined : report.data
  // A checked address shows the check's rows: a token only the chain holds shows up there too.
  const checkedRows = shown ? (check.data?.rows ?? []) : []
  const checked = new Set(checkedRows.map((r) => r.address))
  const rows = [...(shown?.rows ?? []).filter((r) => !checked.has(r.address)), ...checkedRows].sort((a, b) =>
    a.address < b.address ? -1 : a.address > b.address ? 1 : a.token < b.token ? -1 : 1,
  )

  return (
    <Panel title={t('admin.reconcile.title')}>
      <div className="mb-3 flex flex-col gap-2 sm:flex-row sm:items-end">
        {enabled.length > 1 && (
          <label htmlFor="reconcile-chain" className="flex flex-col gap-1 text-sm">
            {t('admin.reconcile.network')}
            <select
              id="reconcile-chain"
              value={period.chain}
              onChange={(e) => change({ chain: e.target.value as ChainId })}
              className={`${inputClass} h-10.5 sm:w-56`}
            >
              {enabled.map((chain) => (
                <option key={chain} value={chain}>
                  {chainNames[chain]}
                </option>
              ))}
            </select>
          </label>
        )}
        <label htmlFor="reconcile-from" className="flex flex-col gap-1 text-sm">
          {t('admin.from')}
          <TextInput
            id="reconcile-from"
            type="date"
            value={period.from}
            onChange={(e) => e.target.value && change({ from: e.target.value })}
          />
        </label>
        <label htmlFor="reconcile-to" className="flex flex-col gap-1 text-sm">
          {t('admin.to')}
          <TextInput
            id="reconcile-to"
            type="date"
            value={period.to}
            onChange={(e) => e.target.value && change({ to: e.target.value })}
          />
        </label>
      </div>
      {!shown && !report.isError ? (
        <p role="status" className="text-sm text-muted">
          {t('admin.loading')}
        </p>
      ) : report.isError ? (
        <p role="alert" className="text-sm text-red-400">
          {t('admin.reconcile.failed')}
        </p>
      ) : rows.length === 0 ? (
        <p className="text-sm text-muted">{t('admin.reconcile.empty')}</p>
      ) : (
        <>
          <p className={`mb-2 text-sm font-semibold ${shown?.ties ? 'text-emerald-300' : 'text-red-400'}`}>
            {shown?.ties ? t('admin.reconcile.ties') : t('admin.reconcile.differs')}
          </p>
          <ul className="flex flex-col divide-y divide-line text-sm">
            {rows.map((row, i) => (
              <ReconcileRow
                key={`${row.address}|${row.token}`}
                row={row}
                firstOfAddress={rows[i - 1]?.address !== row.address}
                checked={check.data}
                checking={check.isPending}
                onCheck={() => check.mutate(row.address)}
              />
            ))}
          </ul>
          {check.isError && (
            <p role="alert" className="mt-2 text-sm text-red-400">
              {t('admin.reconcile.chainFailed')}
            </p>
          )}
        </>
      )}
      {(shown?.order_mismatches?.length ?? 0) > 0 && <OrderMismatches list={shown?.order_mismatches ?? []} />}
    </Panel>
  )
}

/** Orders whose recorded amount is not what the ledger credits them (the CLI prints the same list). */
function OrderMismatches({ list }: { list: ReconcileAnswer['order_mismatches'] }) {
  const t = useT()
  const { token } = useFormat()
  return (
    <section aria-labelledby="reconcile-mismatches" className="mt-4 rounded-xl border border-red-500/30 p-3">
      <h3 id="reconcile-mismatches" className="text-sm font-semibold text-red-400">
        {t('admin.reconcile.mismatches', { count: list.length })}
      </h3>
      <ul className="mt-2 flex flex-col gap-1 text-sm">
        {list.map((m) => (
          <li key={`${m.order_id}|${m.token}`} className="flex flex-wrap gap-x-3">
            <span className="font-mono text-xs break-all text-fg">{m.order_id}</span>
            <span className="text-muted">
              {t('admin.reconcile.mismatch', {
                recorded: token(m.recorded, m.token),
                credited: token(m.credited, m.token),
              })}
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** One address and token: the ledger's figures, and the chain's once this address was checked. */
function ReconcileRow(props: {
  row: ReconcileRowAnswer
  /** The address's first row (rows come sorted by address): where its check's failure is said. */
  firstOfAddress: boolean
  checked: ReconcileAnswer | undefined
  checking: boolean
  onCheck: () => void
}) {
  const t = useT()
  const { token } = useFormat()
  const { row, checked } = props
  const amount = (value: string) => token(value, row.token, row.decimals)
  const chain = checked?.rows.find((r) => r.address === row.address && r.token === row.token)
  const failed = checked?.chain_errors.find((e) => e.address === row.address)
  // The chain's figure once this address was checked and the chain answered.
  const onChain = chain?.chain ?? null
  const ties = chain?.ties === true
  return (
    <li className="flex flex-col gap-1 py-2">
      <div className="font-mono text-xs break-all text-muted">{row.address}</div>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        <span>{t('admin.reconcile.row', { amount: amount(row.ledger), count: row.ledger_count })}</span>
        <span className="text-emerald-300">
          {t('admin.reconcile.credited', { amount: amount(row.credited) })}
        </span>
        <span className="text-amber-300">
          {t('admin.reconcile.unmatched', { amount: amount(row.unmatched) })}
        </span>
        {onChain !== null && (
          <span className={ties ? 'text-emerald-300' : 'text-red-400'}>
            {t('admin.reconcile.chain', {
              amount: amount(onChain),
              verdict: ties ? t('admin.reconcile.chainTies') : t('admin.reconcile.chainDiffers'),
            })}
          </span>
        )}
      </div>
      {failed && props.firstOfAddress && (
        <p role="alert" className="text-sm text-red-400">
          {failed.narrow
            ? t('admin.reconcile.narrow', { network: chainNames[row.network] })
            : t('admin.reconcile.chainFailed')}{' '}
          {!failed.narrow && <span className="text-xs break-words text-muted">{failed.message}</span>}
        </p>
      )}
      {onChain === null && (
        <div>
          <Button
            variant="ghost"
            disabled={props.checking}
            onClick={props.onCheck}
            aria-label={t('admin.reconcile.checkLabel', { address: row.address })}
          >
            {t('admin.reconcile.check')}
          </Button>
        </div>
      )}
    </li>
  )
}
