import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { AlertTriangle, Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { walletLinesFormSchema } from '../../../shared/admin'
import { Button } from '../../components/ui/button'
import { useSchemaForm } from '../../lib/form'
import { RpcError } from '../../lib/rpc-client'
import { toast } from '../../lib/toast'
import { adminApi, adminKeys } from './api/admin-api'
import { ConfirmDialog } from './components/confirm-dialog'
import { Panel, TextArea } from './components/fields'
import { formatOrderDate } from './orders-format'

type Pending = { kind: 'one'; address: string } | { kind: 'bulk'; addresses: string[] }

export function WalletsTab() {
  const queryClient = useQueryClient()
  const wallets = useQuery({
    queryKey: adminKeys.wallets,
    queryFn: adminApi.wallets,
    refetchInterval: 30_000,
  })
  const [selected, setSelected] = useState<Set<string>>(new Set())
  const [pending, setPending] = useState<Pending | null>(null)

  const refresh = () => queryClient.invalidateQueries({ queryKey: adminKeys.wallets })

  const addition = useMutation({
    mutationFn: adminApi.addWallets,
    onSuccess: async (answer) => {
      if (!answer.success) {
        toast.error(answer.error || 'Failed to add wallet addresses')
        return
      }
      toast.success(`Added ${answer.added_count} wallet address(es)`, { duration: 2000 })
      form.reset({ addresses: '' })
      await refresh()
    },
    onError: (err) => {
      if (!(err instanceof RpcError && (err.status === 401 || err.network)))
        toast.error('Failed to add wallet addresses')
    },
  })
  const adding = addition.isPending

  const form = useSchemaForm({
    schema: walletLinesFormSchema,
    initial: { addresses: '' },
    onValid: ({ addresses }) => {
      if (!adding) addition.mutate(addresses)
    },
    // The shop's toast, beside the error at the text box.
    onInvalid: (errors) => {
      if (errors.addresses) toast.error(errors.addresses)
    },
  })

  const removal = useMutation({
    mutationFn: async (target: Pending) => {
      if (target.kind === 'one') {
        const answer = await adminApi.removeWallet(target.address)
        if (answer.success) toast.success('Wallet address removed', { duration: 2000 })
        else toast.error(answer.error || 'Failed to remove wallet address')
      } else {
        const answer = await adminApi.removeWallets(target.addresses)
        if (answer.success)
          toast.success(`${answer.removed_count} wallet address(es) removed`, { duration: 2000 })
        else toast.error('Failed to delete some addresses')
        setSelected(new Set())
      }
    },
    onError: (_err, target) =>
      toast.error(
        target.kind === 'one' ? 'Failed to remove wallet address' : 'Failed to delete some addresses',
      ),
    onSettled: async () => {
      setPending(null)
      await refresh()
    },
  })
  const removing = removal.isPending

  function remove() {
    if (pending) removal.mutate(pending)
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
      <Panel title="Add Wallet Addresses">
        <form {...form.formProps}>
          <TextArea
            aria-label="Wallet addresses, one per line"
            placeholder="One TRON address per line (34 characters, starting with T)"
            value={form.values.addresses}
            onChange={(e) => form.set('addresses', e.target.value)}
            {...form.control('addresses')}
          />
          {form.errors.addresses && (
            <p id={form.errorId('addresses')} role="alert" className="mt-1.5 text-xs break-all text-red-400">
              {form.errors.addresses}
            </p>
          )}
          <div className="mt-3 flex justify-end">
            <Button type="submit" disabled={adding}>
              <Plus className="size-4" aria-hidden />
              {adding ? 'Adding...' : 'Add Addresses'}
            </Button>
          </div>
        </form>
      </Panel>

      <Panel
        title={`Wallet Addresses (${rows.length})`}
        actions={
          selected.size > 0 && (
            <Button variant="danger" onClick={() => setPending({ kind: 'bulk', addresses: [...selected] })}>
              <Trash2 className="size-4" aria-hidden />
              Delete selected ({selected.size})
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
            Only {data.free_count} of {rows.length} addresses are free. Add more addresses so new orders can
            still be placed.
          </p>
        )}
        {wallets.isLoading ? (
          <p role="status" className="py-10 text-center text-muted">
            Loading...
          </p>
        ) : rows.length === 0 ? (
          <p className="py-10 text-center text-muted">No wallet addresses added yet</p>
        ) : (
          <ul className="flex flex-col divide-y divide-line">
            {rows.map((row) => (
              <li key={row.address} className="flex items-center gap-3 py-2.5">
                <input
                  type="checkbox"
                  aria-label={`Select ${row.address}`}
                  checked={selected.has(row.address)}
                  onChange={() => toggle(row.address)}
                />
                <div className="min-w-0 flex-1">
                  <div className="font-mono text-sm break-all text-fg">{row.address}</div>
                  <div className="text-xs text-muted">
                    {row.state === 'leased' && row.leased_order_id ? (
                      <>
                        Leased to order <span className="font-mono">{row.leased_order_id.slice(0, 8)}</span>
                        {row.order_status ? ` (${row.order_status})` : ''}
                      </>
                    ) : row.state === 'cooling' ? (
                      <span className="text-amber-300">
                        Cooling down until {formatOrderDate(row.cooldown_until)}
                      </span>
                    ) : (
                      <span className="text-emerald-300">Free</span>
                    )}
                  </div>
                </div>
                <Button
                  variant="ghost"
                  aria-label={`Delete ${row.address}`}
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
        title="Delete wallet addresses"
        message={
          pending?.kind === 'one'
            ? `Are you sure you want to remove ${pending.address}?`
            : `Are you sure you want to remove ${pending?.addresses.length ?? 0} wallet address(es)?`
        }
        busy={removing}
        onConfirm={remove}
        onClose={() => setPending(null)}
      />
    </div>
  )
}
