import { useEffect, useRef } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import type { SalesDay } from '../../../../shared/cockpit'
import { useFormat, useT } from '../../../i18n/i18n'

// The last 30 days as bars of revenue (the paid orders' totals, USD) with the part received in USDT
// drawn inside them, and paid orders as a line on a second scale. uPlot draws on a canvas and is loaded with this module only, which the sales view
// imports lazily: the storefront never downloads it.

function cssColour(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim()
  return value || fallback
}

const HEIGHT = 260

export default function RevenueChart({ days }: { days: SalesDay[] }) {
  const holder = useRef<HTMLDivElement>(null)
  const t = useT()
  const { usd, number } = useFormat()

  useEffect(() => {
    const el = holder.current
    if (!el) return
    const primary = cssColour('--color-primary', '#26a17b')
    const accent = cssColour('--color-accent', '#38bdf8')
    const muted = cssColour('--color-muted', '#94a3b8')
    const grid = 'rgba(148, 163, 184, 0.15)'
    const xs = days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000)
    const revenue = days.map((d) => Number(d.revenue_usd))
    const usdt = days.map((d) => Number(d.revenue_usdt))
    const orders = days.map((d) => d.paid_orders)
    const bars = uPlot.paths.bars?.({ size: [0.7, 24] })
    const inner = uPlot.paths.bars?.({ size: [0.35, 12] })
    const axis = { stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } }
    const plot = new uPlot(
      {
        width: Math.max(280, el.clientWidth),
        height: HEIGHT,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        legend: { show: true, live: false },
        cursor: { drag: { x: false, y: false } },
        scales: {
          // Half a day of room at each end, so the first and last bars are whole.
          x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] },
          usd: { range: (_u, _min, max) => [0, Math.max(10, max * 1.1)] },
          n: { range: (_u, _min, max) => [0, Math.max(4, max * 1.2)] },
        },
        axes: [
          {
            ...axis,
            values: (_u, ticks) => ticks.map((tick) => new Date(tick * 1000).toISOString().slice(5, 10)),
          },
          {
            ...axis,
            scale: 'usd',
            values: (_u, ticks) =>
              ticks.map((tick) =>
                number(tick, {
                  style: 'currency',
                  currency: 'USD',
                  minimumFractionDigits: 0,
                  maximumFractionDigits: 2,
                }),
              ),
            size: 56,
          },
          { ...axis, scale: 'n', side: 1, grid: { show: false }, size: 36 },
        ],
        series: [
          {
            label: t('admin.chart.day'),
            value: (_u, v) => (v == null ? '' : new Date(v * 1000).toISOString().slice(0, 10)),
          },
          {
            label: t('admin.chart.revenue'),
            scale: 'usd',
            stroke: accent,
            fill: `${accent}99`,
            paths: bars,
            points: { show: false },
            value: (_u, v) => (v == null ? '' : usd(v)),
          },
          {
            label: t('admin.chart.usdt'),
            scale: 'usd',
            stroke: primary,
            fill: primary,
            paths: inner,
            points: { show: false },
            value: (_u, v) => (v == null ? '' : usd(v)),
          },
          {
            label: t('admin.chart.paidOrders'),
            scale: 'n',
            stroke: '#f59e0b',
            width: 2,
            points: { size: 5 },
          },
        ],
      },
      [xs, revenue, usdt, orders],
      el,
    )
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(280, el.clientWidth), height: HEIGHT }),
    )
    resize.observe(el)
    return () => {
      resize.disconnect()
      plot.destroy()
    }
  }, [days, t, usd, number])

  return (
    <div
      ref={holder}
      role="img"
      aria-label={t('admin.chart.label')}
      data-testid="revenue-chart"
      className="w-full [&_.u-legend_.u-series:first-child]:hidden"
    />
  )
}
