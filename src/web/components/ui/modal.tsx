import { X } from 'lucide-react'
import { type ReactNode, useEffect, useRef } from 'react'
import { useT } from '../../i18n/i18n'

interface ModalProps {
  open: boolean
  onClose: () => void
  /** Accessible name of the dialog. */
  title: string
  children: ReactNode
  className?: string
}

/** A native <dialog>: focus stays inside, Escape and the backdrop close it. */
export function Modal({ open, onClose, title, children, className = '' }: ModalProps) {
  const t = useT()
  const ref = useRef<HTMLDialogElement>(null)

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a backdrop click; Escape closes it for keyboards
    <dialog
      ref={ref}
      aria-label={title}
      // Only this dialog's own close and cancel: React passes a nested dialog's (a confirmation
      // inside an order's detail) up the tree, which must not close this one too.
      onClose={(e) => {
        if (e.target === ref.current) onClose()
      }}
      onCancel={(e) => {
        if (e.target !== ref.current) return
        e.preventDefault()
        onClose()
      }}
      onClick={(e) => {
        if (e.target === ref.current) onClose()
      }}
      className={`m-auto w-[calc(100%-1.5rem)] max-w-3xl overflow-hidden rounded-2xl border border-line bg-card p-0 text-fg shadow-2xl backdrop:bg-black/70 backdrop:backdrop-blur-sm ${className}`}
    >
      {open && (
        <div className="relative max-h-[90dvh] overflow-y-auto">
          <button
            type="button"
            onClick={onClose}
            aria-label={t('modal.close')}
            className="absolute top-3 right-3 z-10 rounded-full bg-black/50 p-2 text-white hover:bg-black/70"
          >
            <X className="size-5" aria-hidden />
          </button>
          {children}
        </div>
      )}
    </dialog>
  )
}
