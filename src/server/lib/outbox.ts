import { sql } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import type { Db } from '../db/client'
import { type Backoff, backoffDelay } from './backoff'
import type { PollLoop } from './poll-loop'

// The one claim-and-retry loop of the outboxes (order e-mail, webhook deliveries, Telegram alerts).
// A due row is claimed by counting the attempt and moving its next attempt past the claim time in
// one statement (FOR UPDATE SKIP LOCKED), so two processes never send one row at the same time; a
// process that dies mid-send leaves the claim to run out and the row is sent again: at least once.
// Each pass sends every due row once: a row that just failed waits for its back-off, not for the
// pass. The sender records the outcome in its own columns, with the delay and the verdict that
// retryPlan (on the one doubling back-off, lib/backoff.ts) gives it.

export interface OutboxTable {
  table: PgTable
  /** Column names of the row's state: 'pending' rows are due once next_at has passed. */
  status: string
  attempts: string
  nextAt: string
  /** Columns answered for a claimed row (always with id). */
  returning: readonly string[]
}

/** The claim: one due row, its attempt counted, held for claimMs; null when none is due. */
export async function claimDue<Row extends { id: number }>(
  db: Db,
  outbox: OutboxTable,
  claimMs: number,
  exclude: readonly number[],
): Promise<Row | null> {
  const id = sql.identifier
  const { table } = outbox
  const result = (await db.execute(sql`
    update ${table} set ${id(outbox.attempts)} = ${id(outbox.attempts)} + 1,
      ${id(outbox.nextAt)} = now() + ${claimMs} * interval '1 millisecond'
    where id = (
      select id from ${table}
      where ${id(outbox.status)} = 'pending' and ${id(outbox.nextAt)} <= now()
        ${
          exclude.length > 0
            ? sql`and id not in (${sql.join(
                exclude.map((n) => sql`${n}`),
                sql`, `,
              )})`
            : sql``
        }
      order by ${id(outbox.nextAt)}, id
      limit 1
      for update skip locked
    )
    returning ${sql.join(
      ['id', ...outbox.returning].map((c) => id(c)),
      sql`, `,
    )}`)) as unknown as { rows: Row[] }
  return result.rows[0] ?? null
}

/** A worker sending an outbox on the shared poll loop (mail, webhooks); drain() sends every due row once (tests). */
export interface OutboxWorker extends PollLoop {
  /** Answers how many rows went out. */
  drain(): Promise<number>
}

/**
 * Claims and sends every due row once; answers how many went out. `send` records the outcome
 * (success, or a retry planned with retryPlan) and answers whether the row went out.
 */
export async function drainOutbox<Row extends { id: number }>(
  db: Db,
  outbox: OutboxTable,
  claimMs: number,
  send: (row: Row) => Promise<boolean>,
): Promise<number> {
  let sent = 0
  const seen: number[] = []
  for (;;) {
    const row = await claimDue<Row>(db, outbox, claimMs, seen)
    if (!row) return sent
    seen.push(row.id)
    if (await send(row)) sent += 1
  }
}

export interface RetryPolicy extends Backoff {
  /** After this many attempts the row is failed (the operator can send it again). */
  maxAttempts?: number
  /** Or: retries stop once this long has passed since the row was written. */
  retryForMs?: number
}

/**
 * A row's next try: after the n-th failed attempt it waits the doubling back-off (lib/backoff.ts),
 * and at least what the receiver asked for (a 429's Retry-After). Final when the attempts or the
 * time to retry for are used up.
 */
export function retryPlan(
  attempts: number,
  policy: RetryPolicy,
  extra: { retryAfterMs?: number; ageMs?: number } = {},
): { delayMs: number; final: boolean } {
  const delayMs = Math.max(extra.retryAfterMs ?? 0, backoffDelay(attempts, policy))
  const final =
    (policy.maxAttempts !== undefined && attempts >= policy.maxAttempts) ||
    (policy.retryForMs !== undefined && (extra.ageMs ?? 0) + delayMs > policy.retryForMs)
  return { delayMs, final }
}
