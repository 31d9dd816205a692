import {
  type DeliveryModeOption,
  deliveryModeOptions,
  type SalesStock,
  updateStockSettingsInputSchema,
} from '../../../../shared/cockpit'
import { Button } from '../../../components/ui/button'
import { useT } from '../../../i18n/i18n'
import { type SchemaForm, useSchemaForm } from '../../../lib/form'
import { inputClass, Panel } from '../components/fields'
import { useStock, useUpdateStockSettings } from './api/cockpit'
import { deliveryModeLabels } from './delivery-modes'

// How each paid product delivers its keys, and below how many keys left it counts as low stock.
// Keys themselves are uploaded in the Products tab.

/** The stock call's own rules for the two settings a row edits. */
const stockFormSchema = updateStockSettingsInputSchema.pick({
  p_delivery_mode: true,
  p_low_stock_threshold: true,
  p_licence_activation_limit: true,
  p_licence_validity_days: true,
})
/** An empty box is null (no warning, unlimited, for ever). */
const thresholdOf = (text: string) => (text.trim() === '' ? null : Number(text))

type StockForm = SchemaForm<{
  p_delivery_mode: DeliveryModeOption
  p_low_stock_threshold: string
  p_licence_activation_limit: string
  p_licence_validity_days: string
}>

/** A whole-number box of the row: empty means its placeholder (unlimited, for ever). */
function NumberField(props: {
  form: StockForm
  name: 'p_licence_activation_limit' | 'p_licence_validity_days'
  label: string
  ariaLabel: string
  placeholder: string
}) {
  const { form, name } = props
  return (
    <label className="flex flex-col gap-1 text-xs text-muted">
      {props.label}
      <input
        aria-label={props.ariaLabel}
        inputMode="numeric"
        placeholder={props.placeholder}
        value={form.values[name]}
        onChange={(e) => form.set(name, e.target.value)}
        className={inputClass}
        {...form.control(name)}
      />
      {form.errors[name] && (
        <span id={form.errorId(name)} role="alert" className="text-red-400">
          {form.errors[name]}
        </span>
      )}
    </label>
  )
}

function StockRow({ stock }: { stock: SalesStock }) {
  const t = useT()
  const invalid = {
    p_low_stock_threshold: t('admin.stock.thresholdInvalid'),
    p_licence_activation_limit: t('admin.stock.licenceLimitInvalid'),
    p_licence_validity_days: t('admin.stock.licenceDaysInvalid'),
  }
  const save = useUpdateStockSettings(stock)
  const form = useSchemaForm({
    schema: stockFormSchema,
    initial: {
      p_delivery_mode: stock.delivery_mode,
      p_low_stock_threshold: stock.low_stock_threshold?.toString() ?? '',
      p_licence_activation_limit: stock.licence_activation_limit?.toString() ?? '',
      p_licence_validity_days: stock.licence_validity_days?.toString() ?? '',
    },
    toInput: (v) => ({
      ...v,
      p_low_stock_threshold: thresholdOf(v.p_low_stock_threshold),
      p_licence_activation_limit: thresholdOf(v.p_licence_activation_limit),
      p_licence_validity_days: thresholdOf(v.p_licence_validity_days),
    }),
    message: (_issue, field) => invalid[field as keyof typeof invalid],
    onValid: (v) => {
      if (save.isPending) return
      save.mutate({
        mode: v.p_delivery_mode,
        threshold: v.p_low_stock_threshold,
        licenceLimit: v.p_licence_activation_limit ?? null,
        licenceDays: v.p_licence_validity_days ?? null,
      })
    },
  })
  const mode = form.values.p_delivery_mode
  const threshold = form.values.p_low_stock_threshold
  const limit = form.values.p_licence_activation_limit
  const days = form.values.p_licence_validity_days
  const changed =
    mode !== stock.delivery_mode ||
    thresholdOf(threshold) !== stock.low_stock_threshold ||
    thresholdOf(limit) !== stock.licence_activation_limit ||
    thresholdOf(days) !== stock.licence_validity_days

  return (
    <li>
      <form
        {...form.formProps}
        className="grid gap-3 py-4 sm:grid-cols-2 lg:grid-cols-[1fr_16rem_8rem_8rem_8rem_auto] lg:items-end"
      >
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
            placeholder={t('admin.stock.noWarning')}
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
        <NumberField
          form={form}
          name="p_licence_activation_limit"
          label={t('admin.stock.licenceLimit')}
          ariaLabel={t('admin.stock.licenceLimitOf', { name: stock.name })}
          placeholder={t('admin.stock.unlimited')}
        />
        <NumberField
          form={form}
          name="p_licence_validity_days"
          label={t('admin.stock.licenceDays')}
          ariaLabel={t('admin.stock.licenceDaysOf', { name: stock.name })}
          placeholder={t('admin.stock.forever')}
        />
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
              key={`${s.product_id}-${s.delivery_mode}-${s.low_stock_threshold}-${s.licence_activation_limit}-${s.licence_validity_days}`}
              stock={s}
            />
          ))}
        </ul>
      )}
    </Panel>
  )
}
