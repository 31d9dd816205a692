import { AlertTriangle } from 'lucide-react'
import { Button } from '../../../components/ui/button'
import { Modal } from '../../../components/ui/modal'
import { useT } from '../../../i18n/i18n'

/** The delete confirmation required for orders, products and wallets. */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  keepLabel,
  busy = false,
  onConfirm,
  onClose,
}: {
  open: boolean
  title: string
  message: string
  confirmLabel?: string
  /** The button that leaves things as they are, when "Cancel" would be read as the action (Cancel refund). */
  keepLabel?: string
  busy?: boolean
  onConfirm: () => void
  onClose: () => void
}) {
  const t = useT()
  return (
    <Modal open={open} onClose={onClose} title={title} className="max-w-md">
      <div className="p-6 sm:p-8">
        <div className="grid size-12 place-items-center rounded-full bg-red-500/15">
          <AlertTriangle className="size-6 text-red-400" aria-hidden />
        </div>
        <h2 className="mt-4 text-xl font-semibold text-fg">{title}</h2>
        <p className="mt-2 break-words text-muted">{message}</p>
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {keepLabel ?? t('admin.cancel')}
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={busy}>
            {confirmLabel ?? t('admin.delete')}
          </Button>
        </div>
      </div>
    </Modal>
  )
}
