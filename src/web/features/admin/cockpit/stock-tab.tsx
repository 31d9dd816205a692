import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  type DashboardStock,
  type DeliveryModeOption,
  deliveryModeLabels,
  deliveryModeOptions,
  updateStockSettingsInputSchema,
} from '../../../../shared/cockpit'
import { Button } from '../../../components/ui/button'
import { useSchemaForm } from '../../../lib/form'
import { toast } from '../../../lib/toast'
import { adminKeys } from '../api/admin-api'
import { inputClass, Panel } from '../components/fields'
import { cockpitApi, cockpitKeys } from './cockpit-api'

// How each paid product delivers its keys, and below how many keys left it counts as low stock.
// Keys themselves are uploaded in the Products tab.

/** The stock call's own rules for the two settings a row edits. */
const stockFormSchema = updateStockSettingsInputSchema.pick({
  p_delivery_mode: true,
  p_low_stock_threshold: true,
})
const thresholdOf = (text: string) => (text.trim() === '' ? null : Number(text))

function StockRow({ stock }: { stock: DashboardStock }) {
  const queryClient = useQueryClient()
  const save = useMutation({
    mutationFn: (input: { mode: DeliveryModeOption; threshold: number | null }) =>
      cockpitApi.updateStockSettings(stock.product_id, input.mode, input.threshold),
    onSuccess: async (answer) => {
      if (answer.success) toast.success(`${stock.name}: stock settings saved`, { duration: 2000 })
      else toast.error(answer.error)
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: cockpitKeys.dashboard }),
        queryClient.invalidateQueries({ queryKey: adminKeys.products }),
      ])
    },
    onError: () => toast.error('Failed to save the stock settings'),
  })
  const form = useSchemaForm({
    schema: stockFormSchema,
    initial: {
      p_delivery_mode: stock.delivery_mode,
      p_low_stock_threshold: stock.low_stock_threshold?.toString() ?? '',
    },
    toInput: (v) => ({ ...v, p_low_stock_threshold: thresholdOf(v.p_low_stock_threshold) }),
    message: () => 'A whole number from 0 to 1000000, or empty',
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
            {stock.keys_left} left · {stock.keys_reserved} reserved · {stock.keys_sold} sold
          </p>
        </div>
        <label className="flex flex-col gap-1 text-xs text-muted">
          Delivery
          <select
            aria-label={`Delivery of ${stock.name}`}
            value={mode}
            onChange={(e) => form.set('p_delivery_mode', e.target.value as DeliveryModeOption)}
            className={inputClass}
          >
            {deliveryModeOptions.map((m) => (
              <option key={m} value={m}>
                {deliveryModeLabels[m]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs text-muted">
          Low below
          <input
            aria-label={`Low-stock threshold of ${stock.name}`}
            inputMode="numeric"
            placeholder="No warning"
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
          {save.isPending ? 'Saving...' : 'Save'}
        </Button>
      </form>
    </li>
  )
}

export function StockTab() {
  const dashboard = useQuery({ queryKey: cockpitKeys.dashboard, queryFn: cockpitApi.dashboard })
  const stock = dashboard.data?.stock ?? []
  return (
    <Panel title="Stock and delivery">
      <p className="mb-2 text-sm text-muted">
        Keys from stock only: an order reserves its keys when it is placed, and the product shows "Sold out"
        once every key is sold or reserved. Stock, then generated: stock first, then a generated key. No key:
        the buyer gets the download only.
      </p>
      {dashboard.isLoading ? (
        <p role="status" className="py-10 text-center text-muted">
          Loading...
        </p>
      ) : stock.length === 0 ? (
        <p className="py-10 text-center text-muted">No paid products</p>
      ) : (
        <ul className="flex flex-col divide-y divide-line">
          {stock.map((s) => (
            <StockRow key={`${s.product_id}-${s.delivery_mode}-${s.low_stock_threshold}`} stock={s} />
          ))}
        </ul>
      )}
    </Panel>
  )
}
