import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useT } from '../i18n/i18n'
import { afterLoadIdle } from '../lib/idle'
import { toast } from '../lib/toast'

const INTERVAL_MS = 30_000
const TOAST_ID = 'connection-lost'

export const healthKeys = { all: ['health'] as const }

/** Whether the shop answers its health check; never throws, so the query never turns to an error. */
async function shopReachable(): Promise<boolean> {
  try {
    const res = await fetch('/api/health', { cache: 'no-store', signal: AbortSignal.timeout(10_000) })
    return res.status === 200
  } catch {
    return false
  }
}

/**
 * Health check once the page has loaded and is idle, then every 30 s; a persistent toast while
 * the shop cannot be reached.
 */
export function ConnectionMonitor() {
  const t = useT()
  const [started, setStarted] = useState(false)
  useEffect(() => afterLoadIdle(() => setStarted(true)), [])
  const health = useQuery({
    queryKey: healthKeys.all,
    queryFn: shopReachable,
    enabled: started,
    refetchInterval: INTERVAL_MS,
    staleTime: 0,
  })
  // biome-ignore lint/correctness/useExhaustiveDependencies: each failed check shows the toast again (it may have been closed)
  useEffect(() => {
    if (health.data === undefined) return
    if (health.data) void toast.dismiss(TOAST_ID)
    else
      toast.error(t('toast.connectionLost'), {
        id: TOAST_ID,
        duration: Number.POSITIVE_INFINITY,
      })
  }, [health.data, health.dataUpdatedAt])
  return null
}
