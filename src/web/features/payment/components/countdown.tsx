import { Clock } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useT } from '../../../i18n/i18n'
import { type CheckoutState, formatCountdown, msRemaining } from '../../../lib/checkout-store'

/** confirming: a transfer was seen and is being confirmed; the window's end is then no alarm. */
export function Countdown({ state, confirming = false }: { state: CheckoutState; confirming?: boolean }) {
  const t = useT()
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000)
    return () => window.clearInterval(timer)
  }, [])
  const left = msRemaining(state, now)
  const urgent = left < 5 * 60_000 && !confirming
  return (
    <div
      className={`flex items-center gap-3 rounded-xl border px-4 py-2.5 ${
        urgent ? 'border-amber-500/40 bg-amber-500/10' : 'border-line bg-white/5'
      }`}
    >
      <Clock className={`size-5 ${urgent ? 'text-amber-400' : 'text-primary'}`} aria-hidden />
      <div>
        <p className="text-xs text-muted" id="time-remaining-label">
          {t('payment.timeRemaining')}
        </p>
        <p
          role="timer"
          className="font-mono text-xl font-bold tabular-nums text-fg"
          aria-labelledby="time-remaining-label"
          data-testid="countdown"
          // A server-rendered page (an invoice's) was written a moment earlier: the browser's second wins.
          suppressHydrationWarning
        >
          {confirming && left === 0 ? t('payment.detected.timer') : formatCountdown(left)}
        </p>
      </div>
    </div>
  )
}
