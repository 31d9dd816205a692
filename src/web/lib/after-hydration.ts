import { useSyncExternalStore } from 'react'

const neverChanges = () => () => {}

/**
 * False while the server renders and while the browser hydrates that HTML, true afterwards (and
 * at once on a page the browser renders itself). A part of a server-rendered page that loads its
 * code lazily renders only once this is true: the server's `renderToString` cannot wait for a
 * lazy component, and would leave a client-render fallback in the HTML that the browser then
 * reports as an error while hydrating (React's #419).
 */
export function useAfterHydration(): boolean {
  return useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  )
}
