import { Check, Copy } from 'lucide-react'
import { useEffect, useId, useState } from 'react'
import { useT } from '../../i18n/i18n'
import { toast } from '../../lib/toast'

const FEEDBACK_MS = 2_000

async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(text)
  throw new Error('Clipboard unavailable')
}

/** A read-only value, shown whole (wrapped), with a copy button that shows a check for 2 s after copying. */
export function CopyField({
  label,
  value,
  copiedMessage,
  failedMessage,
  mono = true,
  copyLabel,
}: {
  label: string
  /** Accessible name of the copy button. */
  copyLabel?: string
  value: string
  copiedMessage: string
  failedMessage: string
  mono?: boolean
}) {
  const t = useT()
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const timer = window.setTimeout(() => setCopied(false), FEEDBACK_MS)
    return () => window.clearTimeout(timer)
  }, [copied])
  // Labels in Chinese or Russian have no ASCII letters to build an id from.
  const id = useId()

  async function copy() {
    try {
      await writeClipboard(value)
      setCopied(true)
      toast.success(copiedMessage, { duration: 2000 })
    } catch {
      toast.error(failedMessage)
    }
  }

  return (
    <div>
      <label htmlFor={id} className="text-xs font-medium text-muted">
        {label}
      </label>
      <div className="mt-1.5 flex items-stretch gap-2">
        {/* A text area, not a one-line input: a long value (a 0x or TRON address, a link) wraps and is
            shown whole beside the button instead of running under it. */}
        <textarea
          id={id}
          readOnly
          rows={1}
          value={value}
          onFocus={(e) => e.currentTarget.select()}
          className={`field-sizing-content min-w-0 flex-1 resize-none overflow-hidden rounded-xl border border-line bg-background px-2 py-2.5 text-xs leading-5 break-all text-fg sm:px-3 sm:text-sm focus:border-primary focus:outline-none ${
            mono ? 'font-mono' : ''
          }`}
        />
        <button
          type="button"
          onClick={copy}
          aria-label={copied ? t('copy.copied', { label }) : (copyLabel ?? t('copy.copy', { label }))}
          className="grid w-11 shrink-0 place-items-center rounded-xl border border-line bg-white/5 text-fg hover:bg-white/10"
        >
          {copied ? (
            <Check className="size-4 text-primary" aria-hidden data-testid="copied-icon" />
          ) : (
            <Copy className="size-4" aria-hidden />
          )}
        </button>
      </div>
    </div>
  )
}
