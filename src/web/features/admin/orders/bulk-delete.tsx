import { Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Button } from '../../../components/ui/button'
import { useT } from '../../../i18n/i18n'
import { ConfirmDialog } from '../components/confirm-dialog'
import { useDeleteOrders } from './api/orders'

/** "Delete selected (n)" and its confirmation; the selection is cleared whatever the outcome. */
export function BulkDelete({ ids, onDone }: { ids: readonly string[]; onDone: () => void }) {
  const t = useT()
  const [confirming, setConfirming] = useState(false)
  const deletion = useDeleteOrders()
  const deleteSelected = () =>
    deletion.mutate([...ids], {
      onSettled: () => {
        setConfirming(false)
        onDone()
      },
    })
  return (
    <>
      {ids.length > 0 && (
        <Button variant="danger" onClick={() => setConfirming(true)}>
          <Trash2 className="size-4" aria-hidden />
          {t('admin.orders.deleteSelected', { count: ids.length })}
        </Button>
      )}
      <ConfirmDialog
        open={confirming}
        title={t('admin.orders.deleteTitle')}
        message={t('admin.orders.deleteConfirm', { count: ids.length })}
        busy={deletion.isPending}
        onConfirm={deleteSelected}
        onClose={() => setConfirming(false)}
      />
    </>
  )
}
