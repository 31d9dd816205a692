import { AlertTriangle, Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { type AdminOrderStatus, adminOrderStatuses, walletLinesFormSchema } from '../../../../shared/admin'
import { Button } from '../../../components/ui/button'
import { Msg, useT } from '../../../i18n/i18n'
import { useSchemaForm } from '../../../lib/form'
import { toast } from '../../../lib/toast'
import { ConfirmDialog } from '../components/confirm-dialog'
import { Panel, TextArea } from '../components/fields'
import { useOrderFormat } from '../lib/orders-format'
import { useAddWallets, useRemoveWallet, useRemoveWallets, useWallets } from './api/wallets'

const isStatus = (s: string): s is AdminOrderStatus => (adminOrderStatuses as readonly string[]).includes(s)

type Pending = { kind: 'one'; address: string } | { kind: 'bulk'; addresses: string[] }

export function WalletsTab() {
  const t = useT()
  const orderFmt = useOrderFormat()
  const wallets = useWallets()
  const [selected, setSelected] = useState<Set<string>>(new Set())
  const [pending, setPending] = useState<Pending | null>(null)

  const addition = useAddWallets()
  const adding = addition.isPending

  const form = useSchemaForm({
    schema: walletLinesFormSchema,
    initial: { addresses: '' },
    onValid: ({ addresses }) => {
      if (!adding) addition.mutate(addresses, { onSuccess: () => form.reset({ addresses: '' }) })
    },
    // The shop's toast, beside the error at the text box.
    onInvalid: (errors) => {
      if (errors.addresses) toast.error(errors.addresses)
    },
  })

  const removeOne = useRemoveWallet()
  const removeMany = useRemoveWallets()
  const removing = removeOne.isPending || removeMany.isPending

  function remove() {
    if (!pending) return
    const done = { onSettled: () => setPending(null) }
    if (pending.kind === 'one') removeOne.mutate(pending.address, done)
    else removeMany.mutate(pending.addresses, { ...done, onSuccess: () => setSelected(new Set()) })
  }

  const data = wallets.data
  const rows = data?.details ?? []
  const toggle = (address: string) =>
    setSelected((s) => {
      const next = new Set(s)
      if (next.has(address)) next.delete(address)
      else next.add(address)
      return next
    })

  return (
    <div className="flex flex-col gap-6">
      <Panel title={t('admin.wallets.addTitle')}>
        <form {...form.formProps}>
          <TextArea
            aria-label={t('admin.wallets.linesLabel')}
            placeholder={t('admin.wallets.linesPlaceholder')}
            {...form.field('addresses')}
          />
          {form.errors.addresses && (
            <p id={form.errorId('addresses')} role="alert" className="mt-1.5 text-xs break-all text-red-400">
              {form.errors.addresses}
            </p>
          )}
          <div className="mt-3 flex justify-end">
            <Button type="submit" disabled={adding}>
              <Plus className="size-4" aria-hidden />
              {adding ? t('admin.wallets.adding') : t('admin.wallets.add')}
            </Button>
          </div>
        </form>
      </Panel>

      <Panel
        title={t('admin.wallets.title', { count: rows.length })}
        actions={
          selected.size > 0 && (
            <Button variant="danger" onClick={() => setPending({ kind: 'bulk', addresses: [...selected] })}>
              <Trash2 className="size-4" aria-hidden />
              {t('admin.orders.deleteSelected', { count: selected.size })}
            </Button>
          )
        }
      >
        {data?.low_free && (
          <p
            role="alert"
            className="mb-4 flex items-start gap-2 rounded-xl border border-amber-500/30 bg-amber-500/10 p-3 text-sm text-amber-200"
          >
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
            {t('admin.wallets.low', { free: data.free_count, total: rows.length })}
          </p>
        )}
        {wallets.isLoading ? (
          <p role="status" className="py-10 text-center text-muted">
            {t('admin.loading')}
          </p>
        ) : rows.length === 0 ? (
          <p className="py-10 text-center text-muted">{t('admin.wallets.empty')}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-line">
            {rows.map((row) => (
              <li key={row.address} className="flex items-center gap-3 py-2.5">
                <input
                  type="checkbox"
                  aria-label={t('admin.wallets.select', { address: row.address })}
                  checked={selected.has(row.address)}
                  onChange={() => toggle(row.address)}
                />
                <div className="min-w-0 flex-1">
                  <div className="font-mono text-sm break-all text-fg">{row.address}</div>
                  <div className="text-xs text-muted">
                    {row.state === 'leased' && row.leased_order_id ? (
                      <>
                        <Msg
                          id="admin.wallets.leased"
                          values={{ id: row.leased_order_id.slice(0, 8) }}
                          components={{ 0: <span className="font-mono" /> }}
                        />
                        {row.order_status && isStatus(row.order_status)
                          ? ` (${t(`admin.status.${row.order_status}`)})`
                          : ''}
                      </>
                    ) : row.state === 'cooling' ? (
                      <span className="text-amber-300">
                        {t('admin.wallets.cooling', { date: orderFmt.date(row.cooldown_until) })}
                      </span>
                    ) : (
                      <span className="text-emerald-300">{t('admin.wallets.free')}</span>
                    )}
                  </div>
                </div>
                <Button
                  variant="ghost"
                  aria-label={t('admin.wallets.delete', { address: row.address })}
                  onClick={() => setPending({ kind: 'one', address: row.address })}
                >
                  <Trash2 className="size-4 text-red-400" aria-hidden />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Panel>

      <ConfirmDialog
        open={pending !== null}
        title={t('admin.wallets.deleteTitle')}
        message={
          pending?.kind === 'one'
            ? t('admin.wallets.confirmOne', { address: pending.address })
            : t('admin.wallets.confirmMany', { count: pending?.addresses.length ?? 0 })
        }
        busy={removing}
        onConfirm={remove}
        onClose={() => setPending(null)}
      />
    </div>
  )
}
