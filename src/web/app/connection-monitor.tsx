import { useEffect } from 'react'
import { toast } from '../lib/toast'

const INTERVAL_MS = 30_000
const TOAST_ID = 'connection-lost'

/** Health check at start and every 30 s; a persistent toast while the shop cannot be reached. */
export function ConnectionMonitor() {
  useEffect(() => {
    let cancelled = false
    const check = async () => {
      let ok = false
      try {
        const res = await fetch('/api/health', { cache: 'no-store', signal: AbortSignal.timeout(10_000) })
        ok = res.status === 200
      } catch {}
      if (cancelled) return
      if (ok) toast.dismiss(TOAST_ID)
      else
        toast.error('Connection lost. Attempting to reconnect...', {
          id: TOAST_ID,
          duration: Number.POSITIVE_INFINITY,
        })
    }
    void check()
    const timer = setInterval(check, INTERVAL_MS)
    return () => {
      cancelled = true
      clearInterval(timer)
    }
  }, [])
  return null
}
