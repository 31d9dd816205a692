/**
 * One hot value kept in memory. PGlite answers one query at a time, so hot reads (catalogue,
 * site content) come from here; writes call invalidate(). With several processes on PostgreSQL
 * another process's write is seen after ttlMs at the latest.
 */
export interface CachedValue<T> {
  get(): Promise<T>
  invalidate(): void
}

export function cachedValue<T>(load: () => Promise<T>, ttlMs: number): CachedValue<T> {
  let value: { data: T; at: number } | undefined
  let inflight: Promise<T> | undefined
  let generation = 0
  return {
    async get() {
      if (value && Date.now() - value.at < ttlMs) return value.data
      if (inflight) return inflight
      const started = generation
      inflight = load()
        .then((data) => {
          // A write that landed while loading makes this result stale: don't keep it.
          if (started === generation) value = { data, at: Date.now() }
          return data
        })
        .finally(() => {
          inflight = undefined
        })
      return inflight
    },
    invalidate() {
      generation++
      value = undefined
      inflight = undefined
    },
  }
}
