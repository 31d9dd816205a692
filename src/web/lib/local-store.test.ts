// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import '../test/setup-dom'
import { createLocalStore } from './local-store'
import { readJson, writeJson } from './storage'

const counterStore = () =>
  createLocalStore<number>({
    keys: ['counter'],
    load: () => {
      const v = readJson<unknown>('counter', 0)
      return typeof v === 'number' && Number.isInteger(v) ? v : 0
    },
    save: (v) => writeJson('counter', v),
    initial: 0,
  })

describe('createLocalStore', () => {
  it('reads what storage holds, validated by load', () => {
    window.localStorage.setItem('counter', '7')
    expect(counterStore().get()).toBe(7)
    window.localStorage.setItem('counter', '"seven"')
    expect(counterStore().get()).toBe(0)
    window.localStorage.setItem('counter', '{not json')
    expect(counterStore().get()).toBe(0)
  })

  it('writes through and tells subscribers', () => {
    const store = counterStore()
    const seen: number[] = []
    const stop = store.subscribe(() => seen.push(store.get()))
    store.set(3)
    store.set(4)
    stop()
    store.set(5)
    expect(seen).toEqual([3, 4])
    expect(window.localStorage.getItem('counter')).toBe('5')
  })

  it('reloads when another tab writes one of its keys, and only then', () => {
    const store = counterStore()
    // Read on first use, then kept in memory.
    expect(store.get()).toBe(0)
    let calls = 0
    store.subscribe(() => calls++)
    window.localStorage.setItem('counter', '42')
    window.dispatchEvent(new StorageEvent('storage', { key: 'other' }))
    expect(store.get()).toBe(0)
    window.dispatchEvent(new StorageEvent('storage', { key: 'counter' }))
    expect(store.get()).toBe(42)
    expect(calls).toBe(1)
  })

  it('answers `initial` itself while nothing is stored, so hydration renders once', () => {
    const initial: number[] = []
    const store = createLocalStore<number[]>({
      keys: ['list'],
      load: () => readJson<number[]>('list', []),
      save: (v) => writeJson('list', v),
      initial,
    })
    expect(store.get()).toBe(initial)
    store.set([1])
    window.localStorage.setItem('list', '[]')
    store.reload()
    expect(store.get()).toBe(initial)
  })
})
