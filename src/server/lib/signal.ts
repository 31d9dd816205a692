// A tiny in-process event: one kind of news, any number of listeners.

export interface Signal<T> {
  on(listener: (value: T) => void): void
  emit(value: T): void
}

export function createSignal<T>(): Signal<T> {
  const listeners = new Set<(value: T) => void>()
  return {
    on: (listener) => {
      listeners.add(listener)
    },
    emit: (value) => {
      for (const listener of listeners) listener(value)
    },
  }
}
