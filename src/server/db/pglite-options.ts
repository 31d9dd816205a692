import { PGlite, type PGliteOptions } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'

/**
 * How every embedded database of the shop is opened: the server's thread, backups, restores and
 * the tests' databases, so all of them run the same PostgreSQL (decision 026).
 * - pg_trgm: the admin's order search has its trigram index on PGlite too (migration 0004 creates
 *   it where the extension loads), so a search stays fast at a million orders.
 * - shared_buffers 8 MB instead of initdb's 128 MB: PGlite claims its buffer pool inside the
 *   WebAssembly memory, which never shrinks, so every megabyte of it the shop has once touched stays
 *   resident. Pages the pool does not hold are read from the operating system's file cache, which
 *   the kernel can give back when memory runs short (decision 071: 16 MB left a shop at 205 MB after
 *   five minutes of traffic, 8 MB at 187 MB, and the admin's pages at a million orders within their
 *   targets).
 */
export function pgliteOptions(): PGliteOptions<{ pg_trgm: typeof pg_trgm }> {
  return {
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=8MB'],
  }
}
