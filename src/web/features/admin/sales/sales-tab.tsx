import { AlertTriangle, Download } from 'lucide-react'
import { Fragment, lazy, Suspense } from 'react'
import type { SalesPool, SalesTotals } from '../../../../shared/cockpit'
import { familyNames } from '../../../../shared/networks'
import { buttonStyles } from '../../../components/ui/button'
import { type Formatters, Msg, type Translate, useFormat, useT } from '../../../i18n/i18n'
import { exportUrl } from '../api/export-url'
import { Panel } from '../components/fields'
import { SetupCard } from '../setup/setup-card'
import { deliveryModeLabels } from '../stock/delivery-modes'
import { useSales } from './api/sales'

// The operator's first look: sales of the last 30 days, orders by status, conversion, the shop's
// health and the keys left per product. The chart library comes with the chart's own chunk.
const RevenueChart = lazy(() => import('./revenue-chart'))

function TotalsCard({ title, totals }: { title: string; totals: SalesTotals }) {
  const t = useT()
  const { usd, token } = useFormat()
  return (
    <section aria-label={title} className="rounded-2xl border border-line bg-card p-4">
      <h3 className="text-sm font-medium text-muted">{title}</h3>
      <p className="mt-1 text-2xl font-bold text-fg">{usd(Number(totals.revenue_usd))}</p>
      <p className="text-sm text-muted">{t('admin.sales.paidOrders', { count: totals.paid_orders })}</p>
      <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
        <div>
          <dt className="text-xs text-muted">{t('admin.sales.usdtReceived')}</dt>
          <dd className="font-medium text-fg">{token(totals.revenue_usdt, 'USDT')}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">{t('admin.sales.trxReceived')}</dt>
          <dd className="font-medium text-fg">
            {token(totals.revenue_trx, 'TRX')}{' '}
            <span className="text-xs text-muted">≈ {usd(Number(totals.revenue_trx_usd))}</span>
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted">{t('admin.sales.refunds')}</dt>
          <dd className="font-medium text-fg">{usd(Number(totals.refunds_usd))}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">{t('admin.sales.net')}</dt>
          <dd className="font-medium text-fg">{usd(Number(totals.net_usd))}</dd>
        </div>
      </dl>
    </section>
  )
}

function Figure({ label, value, warn = false }: { label: string; value: string | number; warn?: boolean }) {
  return (
    <div className={`rounded-xl border p-3 ${warn ? 'border-amber-500/40 bg-amber-500/10' : 'border-line'}`}>
      <dt className="text-xs text-muted">{label}</dt>
      <dd className={`text-xl font-semibold ${warn ? 'text-amber-200' : 'text-fg'}`}>{value}</dd>
    </div>
  )
}

function lagText(t: Translate, seconds: number | null): string {
  if (seconds === null) return '—'
  if (seconds < 90) return t('admin.seconds', { seconds: Math.round(seconds) })
  return t('admin.minutes', { minutes: Math.round(seconds / 60) })
}

/** A family's forecast line; `named` when the shop has more than one family's pool. */
function PoolForecast({ pool, named }: { pool: SalesPool; named: boolean }) {
  const t = useT()
  const { number } = useFormat()
  const family = familyNames[pool.family]
  const text =
    pool.addresses.total === 0
      ? named
        ? t('admin.sales.noFamilyAddresses', { family })
        : t('admin.sales.noAddresses')
      : forecastText(t, number, pool.pool_dry_in_hours, pool.leases_per_hour)
  return (
    <p
      role={pool.pool_warning ? 'alert' : undefined}
      data-testid={`pool-forecast-${pool.family}`}
      className={`mt-4 flex items-start gap-2 text-sm ${pool.pool_warning ? 'text-amber-200' : 'text-muted'}`}
    >
      {pool.pool_warning && <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />}
      {named && pool.addresses.total > 0 ? t('admin.sales.familyForecast', { family, text }) : text}
    </p>
  )
}

function forecastText(
  t: Translate,
  number: Formatters['number'],
  hours: number | null,
  perHour: number,
): string {
  if (hours === null) return t('admin.sales.noForecast')
  const span =
    hours >= 48
      ? t('admin.sales.days', { count: Math.round(hours / 24) })
      : t('admin.sales.hours', { count: Math.round(hours) })
  return t('admin.sales.forecast', { perHour: number(perHour), span })
}

export function SalesTab() {
  const t = useT()
  const { number } = useFormat()
  const sales = useSales()
  const d = sales.data

  const exports = (
    <div className="flex flex-wrap gap-2">
      {(
        [
          ['orders', 'admin.sales.ordersCsv'],
          ['payments', 'admin.sales.paymentsCsv'],
          ['unmatched', 'admin.sales.unmatchedCsv'],
        ] as const
      ).map(([kind, label]) => (
        <a key={kind} href={exportUrl(kind)} download className={buttonStyles.secondary}>
          <Download className="size-4" aria-hidden />
          {t(label)}
        </a>
      ))}
    </div>
  )

  if (!d) {
    return (
      <p role="status" className="py-20 text-center text-muted">
        {sales.isError ? t('admin.sales.loadFailed') : t('admin.loading')}
      </p>
    )
  }

  const { health } = d
  const conversion =
    d.conversion.rate === null
      ? '—'
      : t('admin.percent', {
          percent: number(d.conversion.rate * 100, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
        })
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-fg">{t('admin.tab.sales')}</h1>
        {exports}
      </div>

      <SetupCard />

      <div className="grid gap-4 md:grid-cols-3">
        <TotalsCard title={t('admin.sales.today')} totals={d.totals.today} />
        <TotalsCard title={t('admin.sales.last7')} totals={d.totals.last_7_days} />
        <TotalsCard title={t('admin.sales.last30')} totals={d.totals.last_30_days} />
      </div>

      <Panel title={t('admin.sales.chartTitle')}>
        <Suspense
          fallback={
            <p role="status" className="py-24 text-center text-muted">
              {t('admin.sales.loadingChart')}
            </p>
          }
        >
          <RevenueChart days={d.days} />
        </Suspense>
      </Panel>

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title={t('admin.tab.orders')}>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            <Figure label={t('admin.statusFilter.pending')} value={d.orders_by_status.pending} />
            <Figure label={t('admin.statusFilter.paid')} value={d.orders_by_status.paid} />
            <Figure label={t('admin.statusFilter.completed')} value={d.orders_by_status.completed} />
            <Figure label={t('admin.statusFilter.cancelled')} value={d.orders_by_status.cancelled} />
            <Figure label={t('admin.statusFilter.refunded')} value={d.orders_by_status.refunded} />
            <Figure
              label={t('admin.statusFilter.partially_refunded')}
              value={d.orders_by_status.partially_refunded}
            />
          </dl>
          <p className="mt-4 text-sm text-muted">
            <Msg
              id="admin.sales.conversion"
              values={{ rate: conversion, paid: d.conversion.paid, created: d.conversion.created }}
              components={{ 0: <strong className="text-fg" /> }}
            />
          </p>
        </Panel>

        <Panel title={t('admin.sales.health')}>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            {health.pools.map((pool) => {
              // One family (a TRON-only shop): the figures read as they always did.
              const named = (label: string) =>
                health.pools.length > 1
                  ? t('admin.sales.ofFamily', { label, family: familyNames[pool.family] })
                  : label
              return (
                <Fragment key={pool.family}>
                  <Figure
                    label={named(t('admin.sales.freeAddresses'))}
                    value={pool.addresses.free}
                    warn={pool.pool_warning}
                  />
                  <Figure label={named(t('admin.sales.leased'))} value={pool.addresses.leased} />
                  <Figure label={named(t('admin.sales.coolingDown'))} value={pool.addresses.cooling_down} />
                </Fragment>
              )
            })}
            <Figure
              label={t('admin.sales.unmatched')}
              value={health.unmatched_transfers}
              warn={health.unmatched_transfers > 0}
            />
            <Figure
              label={t('admin.sales.mailsFailing')}
              value={health.mails_failing}
              warn={health.mails_failing > 0}
            />
            <Figure label={t('admin.sales.followerLag')} value={lagText(t, health.follower_lag_seconds)} />
          </dl>
          {health.pools.map((pool) => (
            <PoolForecast key={pool.family} pool={pool} named={health.pools.length > 1} />
          ))}
        </Panel>
      </div>

      <Panel title={t('admin.sales.keysPerProduct')}>
        {d.stock.length === 0 ? (
          <p className="py-6 text-center text-muted">{t('admin.cockpit.noPaidProducts')}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="text-xs text-muted">
                <tr>
                  <th className="py-2 font-medium">{t('admin.sales.product')}</th>
                  <th className="hidden py-2 font-medium sm:table-cell">{t('admin.cockpit.delivery')}</th>
                  <th className="py-2 pl-3 text-right font-medium">{t('admin.sales.left')}</th>
                  <th className="py-2 pl-3 text-right font-medium">{t('admin.sales.reserved')}</th>
                  <th className="py-2 pl-3 text-right font-medium">{t('admin.sales.sold')}</th>
                  <th className="py-2 pl-2 text-right font-medium">{t('admin.cockpit.lowBelow')}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {d.stock.map((s) => (
                  <tr key={s.product_id} className={s.low ? 'text-amber-200' : 'text-fg'}>
                    <td className="py-2">
                      {s.name}
                      {s.low && (
                        <span className="ml-2 rounded-full bg-amber-500/15 px-2 py-0.5 text-xs">
                          {t('admin.sales.lowStock')}
                        </span>
                      )}
                    </td>
                    <td className="hidden py-2 text-muted sm:table-cell">
                      {t(deliveryModeLabels[s.delivery_mode])}
                    </td>
                    <td className="py-2 pl-3 text-right">{s.delivery_mode === 'none' ? '—' : s.keys_left}</td>
                    <td className="py-2 pl-3 text-right">{s.keys_reserved}</td>
                    <td className="py-2 pl-3 text-right">{s.keys_sold}</td>
                    <td className="py-2 pl-3 text-right">{s.low_below ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
    </div>
  )
}
