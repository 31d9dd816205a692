import { basisPointsToText, type DiscountCodeRow } from '../../../../shared/discounts'
import { Button } from '../../../components/ui/button'
import { useFormat, useT } from '../../../i18n/i18n'
import { Panel } from '../components/fields'
import { useOrderFormat } from '../lib/orders-format'
import { useDiscountCodes, useSetDiscountDisabled } from './api/discounts'
import { statusOf } from './discount-values'

/** Every code with its status, its limits, its uses and the revenue of its paid orders. */
export function DiscountList({ onEdit }: { onEdit: (code: DiscountCodeRow) => void }) {
  const t = useT()
  const codes = useDiscountCodes()
  return (
    <Panel title={t('admin.discounts.listTitle')}>
      {!codes.data ? (
        <p role="status" className="text-sm text-muted">
          {codes.isError ? t('admin.discounts.loadFailed') : t('admin.loading')}
        </p>
      ) : codes.data.codes.length === 0 ? (
        <p className="text-sm text-muted">{t('admin.discounts.empty')}</p>
      ) : (
        <ul className="grid gap-3" aria-label={t('admin.discounts.listLabel')}>
          {codes.data.codes.map((code) => (
            <DiscountRow key={code.id} code={code} onEdit={onEdit} />
          ))}
        </ul>
      )}
    </Panel>
  )
}

function DiscountRow({ code, onEdit }: { code: DiscountCodeRow; onEdit: (code: DiscountCodeRow) => void }) {
  const t = useT()
  const { usd } = useFormat()
  const money = (cents: number) => usd(cents / 100)
  const toggle = useSetDiscountDisabled()
  const status = statusOf(code, Date.now())
  const limits = useLimits(code)
  return (
    <li className="rounded-xl border border-line p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-mono text-base font-semibold text-fg">{code.code}</span>
            <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${status.tone}`}>
              {t(status.label)}
            </span>
          </p>
          <p className="mt-1 text-sm text-fg">
            {code.kind === 'percent'
              ? t('admin.discounts.percentValue', { percent: basisPointsToText(code.percent_bp) })
              : t('admin.discounts.amountValue', { amount: money(code.amount_cents ?? 0) })}
          </p>
          <p className="mt-1 text-xs text-muted">{limits.join(' · ')}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            aria-label={t('admin.discounts.edit', { code: code.code })}
            onClick={() => onEdit(code)}
          >
            {t('admin.discounts.editButton')}
          </Button>
          <Button
            variant="secondary"
            aria-label={t(code.disabled ? 'admin.discounts.enableCode' : 'admin.discounts.disableCode', {
              code: code.code,
            })}
            disabled={toggle.isPending}
            onClick={() => toggle.mutate(code)}
          >
            {code.disabled ? t('admin.discounts.enable') : t('admin.discounts.disable')}
          </Button>
        </div>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-3 border-t border-line pt-3 text-sm sm:grid-cols-4">
        <Figure
          label={t('admin.discounts.uses')}
          value={code.max_uses !== null ? `${code.uses} / ${code.max_uses}` : String(code.uses)}
        />
        <Figure label={t('admin.discounts.paidOrders')} value={String(code.paid_orders)} />
        <Figure label={t('admin.discounts.revenue')} value={money(code.revenue_cents)} />
        <Figure label={t('admin.discounts.discountGiven')} value={money(code.discount_given_cents)} />
      </dl>
    </li>
  )
}

/** A code's limits in words: minimum, cap, products, period, uses per e-mail. */
function useLimits(code: DiscountCodeRow): string[] {
  const t = useT()
  const { usd } = useFormat()
  const { date } = useOrderFormat()
  const money = (cents: number) => usd(cents / 100)
  return [
    code.min_total_cents !== null
      ? t('admin.discounts.limit.min', { amount: money(code.min_total_cents) })
      : null,
    code.max_discount_cents !== null
      ? t('admin.discounts.limit.max', { amount: money(code.max_discount_cents) })
      : null,
    code.product_ids
      ? t('admin.discounts.limit.products', { count: code.product_ids.length })
      : t('admin.discounts.limit.allProducts'),
    code.starts_at ? t('admin.discounts.limit.from', { date: date(code.starts_at) }) : null,
    code.ends_at ? t('admin.discounts.limit.until', { date: date(code.ends_at) }) : null,
    code.max_uses_per_email !== null
      ? t('admin.discounts.limit.perEmail', { count: code.max_uses_per_email })
      : null,
  ].filter((limit): limit is string => limit !== null)
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="font-semibold tabular-nums text-fg">{value}</dd>
    </div>
  )
}
