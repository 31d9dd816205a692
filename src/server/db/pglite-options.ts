import { PGlite, type PGliteOptions } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'

/**
 * How every embedded database of the shop is opened: the server's thread, backups, restores and
 * the tests' databases, so all of them run the same PostgreSQL (decision 026).
 * - pg_trgm: the admin's order search has its trigram index on PGlite too (migration 0004 creates
 *   it where the extension loads), so a search stays fast at a million orders.
 * - shared_buffers 16 MB instead of initdb's 128 MB: PGlite claims its buffer pool inside the
 *   WebAssembly memory when it starts, so every megabyte here is a megabyte of resident memory
 *   whether it is used or not. Pages the pool does not hold are read from the operating system's
 *   file cache, which the kernel can give back when memory runs short.
 */
export function pgliteOptions(): PGliteOptions<{ pg_trgm: typeof pg_trgm }> {
  return {
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'],
  }
}
