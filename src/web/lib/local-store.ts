import { useSyncExternalStore } from 'react'

// One pattern for state that lives in localStorage (cart, checkout, payment success): read once,
// kept in memory, written through on every change, re-read when another tab writes one of its
// keys. Server rendering and hydration see `initial`, so the first render matches the HTML.

export interface LocalStore<T> {
  get(): T
  set(next: T): void
  /** Re-reads storage (another tab, or a test that wrote storage itself). */
  reload(): void
  subscribe(listener: () => void): () => void
  /** The current value in a component. */
  use(): T
}

export interface LocalStoreOptions<T> {
  /** Storage keys this store reads; a change to any of them in another tab reloads it. */
  keys: readonly string[]
  /** Reads and validates what storage holds; never throws. */
  load: () => T
  /** Writes (or removes) the stored keys for a new value. */
  save: (value: T) => void
  /** The value before anything is read: server rendering and hydration. */
  initial: T
}

export function createLocalStore<T>({ keys, load, save, initial }: LocalStoreOptions<T>): LocalStore<T> {
  const listeners = new Set<() => void>()
  // Nothing stored reads as `initial` itself: hydration then finds the value it rendered with and
  // has no second render to do (a fresh visit's header would otherwise render twice).
  const initialText = JSON.stringify(initial)
  const read = () => {
    const loaded = load()
    return JSON.stringify(loaded) === initialText ? initial : loaded
  }
  // Read on first use, not when the module loads: the script's evaluation stays short.
  let value: { current: T } | undefined
  const notify = () => {
    for (const l of listeners) l()
  }
  const store: LocalStore<T> = {
    get: () => {
      value ??= { current: read() }
      return value.current
    },
    set(next) {
      value = { current: next }
      save(next)
      notify()
    },
    reload() {
      value = { current: read() }
      notify()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    use: () => useSyncExternalStore(store.subscribe, store.get, () => initial),
  }
  if (typeof window !== 'undefined') {
    window.addEventListener('storage', (event) => {
      if (event.key === null || keys.includes(event.key)) store.reload()
    })
  }
  return store
}
