/**
 * Calls `then` in an idle moment once the page has loaded (at the latest `timeout` ms after);
 * answers a function that cancels it. Work the first paint and hydration do not need waits here,
 * so it never lengthens the tasks that make the page interactive.
 */
export function afterLoadIdle(then: () => void, timeout = 2000): () => void {
  let idle: number | undefined
  const schedule = () => {
    idle = window.requestIdleCallback
      ? window.requestIdleCallback(then, { timeout })
      : window.setTimeout(then, 1)
  }
  if (document.readyState === 'complete') schedule()
  else window.addEventListener('load', schedule, { once: true })
  return () => {
    window.removeEventListener('load', schedule)
    if (idle === undefined) return
    if (window.cancelIdleCallback) window.cancelIdleCallback(idle)
    else window.clearTimeout(idle)
  }
}
