import {
  type DeliveryModeOption,
  deliveryModeOptions,
  type SalesStock,
  updateStockSettingsInputSchema,
} from '../../../../shared/cockpit'
import { Button } from '../../../components/ui/button'
import { useT } from '../../../i18n/i18n'
import { useSchemaForm } from '../../../lib/form'
import { inputClass, Panel } from '../components/fields'
import { useStock, useUpdateStockSettings } from './api/cockpit'
import { deliveryModeLabels } from './delivery-modes'

// How each paid product delivers its keys, and below how many keys left it counts as low stock.
// Keys themselves are uploaded in the Products tab.

/** The stock call's own rules for the two settings a row edits. */
const stockFormSchema = updateStockSettingsInputSchema.pick({
  p_delivery_mode: true,
  p_low_stock_threshold: true,
})
const thresholdOf = (text: string) => (text.trim() === '' ? null : Number(text))

function StockRow({ stock, shopThreshold }: { stock: SalesStock; shopThreshold: number }) {
  const t = useT()
  const thresholdInvalid = t('admin.stock.thresholdInvalid')
  const save = useUpdateStockSettings(stock)
  const form = useSchemaForm({
    schema: stockFormSchema,
    initial: {
      p_delivery_mode: stock.delivery_mode,
      p_low_stock_threshold: stock.low_stock_threshold?.toString() ?? '',
    },
    toInput: (v) => ({ ...v, p_low_stock_threshold: thresholdOf(v.p_low_stock_threshold) }),
    message: () => thresholdInvalid,
    onValid: (v) => {
      if (!save.isPending) save.mutate({ mode: v.p_delivery_mode, threshold: v.p_low_stock_threshold })
    },
  })
  const mode = form.values.p_delivery_mode
  const threshold = form.values.p_low_stock_threshold
  const changed = mode !== stock.delivery_mode || thresholdOf(threshold) !== stock.low_stock_threshold

  return (
    <li>
      <form {...form.formProps} className="grid gap-3 py-4 md:grid-cols-[1fr_18rem_9rem_auto] md:items-end">
        <div>
          <p className="font-medium text-fg">{stock.name}</p>
          <p className="text-xs text-muted">
            {t('admin.stock.counts', {
              left: stock.keys_left,
              reserved: stock.keys_reserved,
              sold: stock.keys_sold,
            })}
          </p>
        </div>
        <label className="flex flex-col gap-1 text-xs text-muted">
          {t('admin.cockpit.delivery')}
          <select
            aria-label={t('admin.stock.deliveryOf', { name: stock.name })}
            value={mode}
            onChange={(e) => form.set('p_delivery_mode', e.target.value as DeliveryModeOption)}
            className={inputClass}
          >
            {deliveryModeOptions.map((m) => (
              <option key={m} value={m}>
                {t(deliveryModeLabels[m])}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs text-muted">
          {t('admin.cockpit.lowBelow')}
          <input
            aria-label={t('admin.stock.thresholdOf', { name: stock.name })}
            inputMode="numeric"
            placeholder={
              mode === 'stock_only'
                ? t('admin.stock.shopWide', { threshold: shopThreshold })
                : t('admin.stock.noWarning')
            }
            value={threshold}
            onChange={(e) => form.set('p_low_stock_threshold', e.target.value)}
            className={inputClass}
            {...form.control('p_low_stock_threshold')}
          />
          {form.errors.p_low_stock_threshold && (
            <span id={form.errorId('p_low_stock_threshold')} role="alert" className="text-red-400">
              {form.errors.p_low_stock_threshold}
            </span>
          )}
        </label>
        <Button type="submit" disabled={!changed || save.isPending}>
          {save.isPending ? t('admin.saving') : t('admin.save')}
        </Button>
      </form>
    </li>
  )
}

export function StockTab() {
  const t = useT()
  const figures = useStock()
  const stock = figures.data?.stock ?? []
  return (
    <Panel title={t('admin.stock.title')}>
      <p className="mb-2 text-sm text-muted">{t('admin.stock.intro')}</p>
      {figures.isLoading ? (
        <p role="status" className="py-10 text-center text-muted">
          {t('admin.loading')}
        </p>
      ) : stock.length === 0 ? (
        <p className="py-10 text-center text-muted">{t('admin.cockpit.noPaidProducts')}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-line">
          {stock.map((s) => (
            <StockRow
              key={`${s.product_id}-${s.delivery_mode}-${s.low_stock_threshold}`}
              stock={s}
              shopThreshold={figures.data?.low_stock_threshold ?? 0}
            />
          ))}
        </ul>
      )}
    </Panel>
  )
}
