import { Menu, X } from 'lucide-react'
import { useT } from '../../i18n/i18n'

/** The hamburger of the public and admin headers; `className` says at which width it hides. */
export function MenuToggle({
  open,
  controls,
  onToggle,
  className,
}: {
  open: boolean
  /** Id of the menu it opens. */
  controls: string
  onToggle: () => void
  className: string
}) {
  const t = useT()
  return (
    <button
      type="button"
      className={`rounded-lg p-2.5 text-fg hover:bg-white/5 ${className}`}
      aria-label={open ? t('menu.close') : t('menu.open')}
      aria-expanded={open}
      aria-controls={controls}
      onClick={onToggle}
    >
      {open ? <X className="size-5" aria-hidden /> : <Menu className="size-5" aria-hidden />}
    </button>
  )
}
