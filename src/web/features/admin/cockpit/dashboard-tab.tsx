import { useQuery } from '@tanstack/react-query'
import { AlertTriangle, Download } from 'lucide-react'
import { lazy, Suspense } from 'react'
import { type DashboardTotals, deliveryModeLabels } from '../../../../shared/cockpit'
import { buttonStyles } from '../../../components/ui/button'
import { Panel } from '../components/fields'
import { cockpitApi, cockpitKeys, exportUrl } from './cockpit-api'

// The operator's first look: sales of the last 30 days, orders by status, conversion, the shop's
// health and the keys left per product. The chart library comes with the chart's own chunk.
const RevenueChart = lazy(() => import('./revenue-chart'))

const usd = (text: string) =>
  `$${Number(text).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`
const amount = (text: string) =>
  Number(text).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 })

function TotalsCard({ title, totals }: { title: string; totals: DashboardTotals }) {
  return (
    <section aria-label={title} className="rounded-2xl border border-line bg-card p-4">
      <h3 className="text-sm font-medium text-muted">{title}</h3>
      <p className="mt-1 text-2xl font-bold text-fg">{usd(totals.revenue_usd)}</p>
      <p className="text-sm text-muted">
        {totals.paid_orders} paid order{totals.paid_orders === 1 ? '' : 's'}
      </p>
      <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
        <div>
          <dt className="text-xs text-muted">USDT received</dt>
          <dd className="font-medium text-fg">{amount(totals.revenue_usdt)}</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">TRX received</dt>
          <dd className="font-medium text-fg">
            {amount(totals.revenue_trx)}{' '}
            <span className="text-xs text-muted">≈ {usd(totals.revenue_trx_usd)}</span>
          </dd>
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

function lagText(seconds: number | null): string {
  if (seconds === null) return '—'
  if (seconds < 90) return `${Math.round(seconds)} s`
  return `${Math.round(seconds / 60)} min`
}

function forecastText(hours: number | null, perHour: number): string {
  if (hours === null) return 'No orders in the last 7 days: no forecast.'
  const span = hours >= 48 ? `${Math.round(hours / 24)} days` : `${Math.round(hours)} hours`
  return `At the last 7 days' rate (${perHour} orders an hour) the free addresses are used up in about ${span}.`
}

export function DashboardTab() {
  const dashboard = useQuery({
    queryKey: cockpitKeys.dashboard,
    queryFn: cockpitApi.dashboard,
    refetchInterval: 60_000,
  })
  const d = dashboard.data

  const exports = (
    <div className="flex flex-wrap gap-2">
      {(
        [
          ['orders', 'Orders CSV'],
          ['payments', 'Payments CSV'],
          ['unmatched', 'Unmatched transfers CSV'],
        ] as const
      ).map(([kind, label]) => (
        <a key={kind} href={exportUrl(kind)} download className={buttonStyles.secondary}>
          <Download className="size-4" aria-hidden />
          {label}
        </a>
      ))}
    </div>
  )

  if (!d) {
    return (
      <p role="status" className="py-20 text-center text-muted">
        {dashboard.isError ? 'Failed to load the dashboard' : 'Loading...'}
      </p>
    )
  }

  const { health } = d
  const conversion = d.conversion.rate === null ? '—' : `${(d.conversion.rate * 100).toFixed(1)} %`
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-fg">Dashboard</h1>
        {exports}
      </div>

      <div className="grid gap-4 md:grid-cols-3">
        <TotalsCard title="Today" totals={d.totals.today} />
        <TotalsCard title="Last 7 days" totals={d.totals.last_7_days} />
        <TotalsCard title="Last 30 days" totals={d.totals.last_30_days} />
      </div>

      <Panel title="Revenue and paid orders per day (UTC)">
        <Suspense
          fallback={
            <p role="status" className="py-24 text-center text-muted">
              Loading chart...
            </p>
          }
        >
          <RevenueChart days={d.days} />
        </Suspense>
      </Panel>

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Orders">
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            <Figure label="Pending" value={d.orders_by_status.pending} />
            <Figure label="Paid" value={d.orders_by_status.paid} />
            <Figure label="Completed" value={d.orders_by_status.completed} />
            <Figure label="Cancelled" value={d.orders_by_status.cancelled} />
          </dl>
          <p className="mt-4 text-sm text-muted">
            Conversion, last 30 days: <strong className="text-fg">{conversion}</strong> ({d.conversion.paid}{' '}
            of {d.conversion.created} orders created were paid)
          </p>
        </Panel>

        <Panel title="Shop health">
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            <Figure label="Free addresses" value={health.addresses.free} warn={health.pool_warning} />
            <Figure label="Leased" value={health.addresses.leased} />
            <Figure label="Cooling down" value={health.addresses.cooling_down} />
            <Figure
              label="Unmatched transfers"
              value={health.unmatched_transfers}
              warn={health.unmatched_transfers > 0}
            />
            <Figure label="Mails failing" value={health.mails_failing} warn={health.mails_failing > 0} />
            <Figure label="Scanner lag" value={lagText(health.scanner_lag_seconds)} />
          </dl>
          <p
            role={health.pool_warning ? 'alert' : undefined}
            className={`mt-4 flex items-start gap-2 text-sm ${health.pool_warning ? 'text-amber-200' : 'text-muted'}`}
          >
            {health.pool_warning && <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />}
            {health.addresses.total === 0
              ? 'No wallet addresses: no order can be placed. Add addresses in the Wallets tab.'
              : forecastText(health.pool_dry_in_hours, health.leases_per_hour)}
          </p>
        </Panel>
      </div>

      <Panel title="Keys left per product">
        {d.stock.length === 0 ? (
          <p className="py-6 text-center text-muted">No paid products</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="text-xs text-muted">
                <tr>
                  <th className="py-2 font-medium">Product</th>
                  <th className="hidden py-2 font-medium sm:table-cell">Delivery</th>
                  <th className="py-2 pl-3 text-right font-medium">Left</th>
                  <th className="py-2 pl-3 text-right font-medium">Reserved</th>
                  <th className="py-2 pl-3 text-right font-medium">Sold</th>
                  <th className="py-2 pl-2 text-right font-medium">Low below</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {d.stock.map((s) => (
                  <tr key={s.product_id} className={s.low ? 'text-amber-200' : 'text-fg'}>
                    <td className="py-2">
                      {s.name}
                      {s.low && (
                        <span className="ml-2 rounded-full bg-amber-500/15 px-2 py-0.5 text-xs">
                          Low stock
                        </span>
                      )}
                    </td>
                    <td className="hidden py-2 text-muted sm:table-cell">
                      {deliveryModeLabels[s.delivery_mode]}
                    </td>
                    <td className="py-2 pl-3 text-right">{s.delivery_mode === 'none' ? '—' : s.keys_left}</td>
                    <td className="py-2 pl-3 text-right">{s.keys_reserved}</td>
                    <td className="py-2 pl-3 text-right">{s.keys_sold}</td>
                    <td className="py-2 pl-3 text-right">{s.low_stock_threshold ?? '—'}</td>
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
