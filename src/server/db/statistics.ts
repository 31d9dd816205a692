import { sql } from 'drizzle-orm'
import { quietLogger, type WorkerLogger } from '../lib/logger'
import { createPollLoop, type PollLoop } from '../lib/poll-loop'
import type { Db } from './client'

// The embedded PGlite has no autovacuum, so nothing refreshes the planner's statistics as the shop
// grows: a table analysed when it held ten orders is planned as if it still did at a million
// (sequential scans where an index would answer). This keeper does for PGlite what PostgreSQL's
// autovacuum does for its statistics: each pass reads the write counters PostgreSQL keeps per table
// and ANALYZEs the tables changed by more than autovacuum's default threshold, 50 rows plus a tenth
// of the table. A pass that finds nothing costs one small catalog query (decision 026).

/** Tables that need fresh statistics, by autovacuum's default rule for ANALYZE. */
async function staleTables(db: Db): Promise<string[]> {
  const result = (await db.execute(sql`
    select s.relname as name
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
    order by s.relname`)) as unknown as { rows: { name: string }[] }
  return result.rows.map((r) => r.name)
}

/** ANALYZEs every table whose statistics are stale; answers the tables it analysed. */
export async function refreshStatistics(db: Db): Promise<string[]> {
  const tables = await staleTables(db)
  for (const table of tables) await db.execute(sql`analyze ${sql.identifier(table)}`)
  return tables
}

export function createStatisticsKeeper(opts: {
  db: Db
  intervalMs?: number
  logger?: WorkerLogger
}): PollLoop {
  const logger = opts.logger ?? quietLogger
  return createPollLoop({
    pollMs: opts.intervalMs ?? 60_000,
    name: 'statistics keeper',
    logger,
    pass: async () => {
      const started = performance.now()
      const tables = await refreshStatistics(opts.db)
      if (tables.length > 0) {
        logger.info({ tables, ms: Math.round(performance.now() - started) }, 'planner statistics refreshed')
      }
    },
  })
}
