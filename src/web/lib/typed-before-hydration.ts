import { useEffect, useRef } from 'react'

/**
 * A server-rendered field can be typed into (or a select changed) before the scripts arrive.
 * React keeps what the field shows when it hydrates, not the state behind it, so a search box
 * would show a search the page does not apply. `adopt` runs once, after the first mount, to read
 * the fields (through their refs) and take what a person already entered; on a page the browser
 * rendered itself the fields hold the state's values and it changes nothing.
 */
export function useTypedBeforeHydration(adopt: () => void): void {
  const done = useRef(false)
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, at mount; later input is React's own
  useEffect(() => {
    if (done.current) return
    done.current = true
    adopt()
  }, [])
}
