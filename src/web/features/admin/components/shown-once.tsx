import type { ReactNode } from 'react'
import { Button } from '../../../components/ui/button'
import { CopyField } from '../../../components/ui/copy-field'
import { useT } from '../../../i18n/i18n'

/** A secret the server answers only once (a webhook's signing secret, an API key): copy it, then Done. */
export function ShownOnce(props: {
  message: ReactNode
  label: string
  value: string
  copiedMessage: string
  failedMessage: string
  onDone: () => void
}) {
  const t = useT()
  return (
    <div
      role="status"
      className="mt-6 grid max-w-2xl gap-3 rounded-xl border border-amber-500/40 bg-amber-500/10 p-4"
    >
      <p className="text-sm text-fg">{props.message}</p>
      <CopyField
        label={props.label}
        value={props.value}
        copiedMessage={props.copiedMessage}
        failedMessage={props.failedMessage}
      />
      <div>
        <Button variant="secondary" onClick={props.onDone}>
          {t('admin.done')}
        </Button>
      </div>
    </div>
  )
}
