import { AlertTriangle } from 'lucide-react'
import { Button } from '../../../components/ui/button'
import { Modal } from '../../../components/ui/modal'
import { useT } from '../../../i18n/i18n'

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
  const t = useT()
  return (
    <Modal open={open} onClose={onClose} title={t('cancel.title')} className="max-w-md">
      <div className="p-6 sm:p-8">
        <div className="grid size-12 place-items-center rounded-full bg-amber-500/15">
          <AlertTriangle className="size-6 text-amber-400" aria-hidden />
        </div>
        <h2 className="mt-4 text-xl font-semibold text-fg">{t('cancel.title')}</h2>
        <p className="mt-2 text-muted">{t('cancel.text')}</p>
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t('cancel.no')}
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={busy}>
            {t('cancel.yes')}
          </Button>
        </div>
      </div>
    </Modal>
  )
}
