import { useState } from 'react'
import type { ReconcileRowAnswer } from '../../../../shared/reconcile'
import { Button } from '../../../components/ui/button'
import { useFormat, useT } from '../../../i18n/i18n'
import { Panel, TextInput } from '../components/fields'
import { type ReconcilePeriod, useChainCheck, useReconcile } from './api/reconcile'

const DAY_MS = 86_400_000
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/**
 * What each address received in a period, as the ledger holds it (credited to orders, unmatched),
 * and, on request, what the chain says it received.
 */
export function ReconcilePanel() {
  const t = useT()
  const { token } = useFormat()
  const [period, setPeriod] = useState<ReconcilePeriod>(() => ({
    from: isoDay(Date.now() - 30 * DAY_MS),
    to: isoDay(Date.now() + DAY_MS),
  }))
  const report = useReconcile(period)
  const check = useChainCheck(period)
  const checked = new Map<string, ReconcileRowAnswer>()
  for (const row of check.data?.rows ?? []) checked.set(`${row.address}|${row.token}`, row)
  const rows = report.data?.rows ?? []

  return (
    <Panel title={t('admin.reconcile.title')}>
      <div className="mb-3 flex flex-col gap-2 sm:flex-row sm:items-end">
        <label htmlFor="reconcile-from" className="flex flex-col gap-1 text-sm">
          {t('admin.from')}
          <TextInput
            id="reconcile-from"
            type="date"
            value={period.from}
            onChange={(e) => e.target.value && setPeriod((p) => ({ ...p, from: e.target.value }))}
          />
        </label>
        <label htmlFor="reconcile-to" className="flex flex-col gap-1 text-sm">
          {t('admin.to')}
          <TextInput
            id="reconcile-to"
            type="date"
            value={period.to}
            onChange={(e) => e.target.value && setPeriod((p) => ({ ...p, to: e.target.value }))}
          />
        </label>
      </div>
      {report.isLoading ? (
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
          <p
            className={`mb-2 text-sm font-semibold ${report.data?.ties ? 'text-emerald-300' : 'text-red-400'}`}
          >
            {report.data?.ties ? t('admin.reconcile.ties') : t('admin.reconcile.differs')}
          </p>
          <ul className="flex flex-col divide-y divide-line text-sm">
            {rows.map((row) => {
              const chain = checked.get(`${row.address}|${row.token}`)
              return (
                <li key={`${row.address}|${row.token}`} className="flex flex-col gap-1 py-2">
                  <div className="font-mono text-xs break-all text-muted">{row.address}</div>
                  <div className="flex flex-wrap gap-x-4 gap-y-1">
                    <span>
                      {t('admin.reconcile.row', {
                        amount: token(row.ledger, row.token),
                        count: row.ledger_count,
                      })}
                    </span>
                    <span className="text-emerald-300">
                      {t('admin.reconcile.credited', { amount: token(row.credited, row.token) })}
                    </span>
                    <span className="text-amber-300">
                      {t('admin.reconcile.unmatched', { amount: token(row.unmatched, row.token) })}
                    </span>
                    {chain && (
                      <span className={chain.ties ? 'text-emerald-300' : 'text-red-400'}>
                        {t('admin.reconcile.chain', {
                          amount: chain.chain === null ? '?' : token(chain.chain, row.token),
                          verdict: chain.ties
                            ? t('admin.reconcile.chainTies')
                            : t('admin.reconcile.chainDiffers'),
                        })}
                      </span>
                    )}
                  </div>
                  {!chain && (
                    <div>
                      <Button
                        variant="ghost"
                        disabled={check.isPending}
                        onClick={() => check.mutate(row.address)}
                        aria-label={t('admin.reconcile.checkLabel', { address: row.address })}
                      >
                        {t('admin.reconcile.check')}
                      </Button>
                    </div>
                  )}
                </li>
              )
            })}
          </ul>
          {check.isError && (
            <p role="alert" className="mt-2 text-sm text-red-400">
              {t('admin.reconcile.chainFailed')}
            </p>
          )}
        </>
      )}
    </Panel>
  )
}
