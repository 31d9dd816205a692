import { AlertTriangle } from 'lucide-react'
import { Button } from '../../../components/ui/button'
import { Modal } from '../../../components/ui/modal'

export function CancelPaymentDialog({
  open,
  busy,
  onConfirm,
  onClose,
}: {
  open: boolean
  busy: boolean
  onConfirm: () => void
  onClose: () => void
}) {
  return (
    <Modal open={open} onClose={onClose} title="Cancel Payment" className="max-w-md">
      <div className="p-6 sm:p-8">
        <div className="grid size-12 place-items-center rounded-full bg-amber-500/15">
          <AlertTriangle className="size-6 text-amber-400" aria-hidden />
        </div>
        <h2 className="mt-4 text-xl font-semibold text-fg">Cancel Payment</h2>
        <p className="mt-2 text-muted">
          Are you sure you want to cancel this payment? Your cart will be preserved and you can try again
          later.
        </p>
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            No, Continue Payment
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={busy}>
            Yes, Cancel Payment
          </Button>
        </div>
      </div>
    </Modal>
  )
}
