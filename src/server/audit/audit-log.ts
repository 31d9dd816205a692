import { and, count, desc, eq, gte, lte, type SQL } from 'drizzle-orm'
import type { FastifyRequest } from 'fastify'
import type { AuditAction, AuditEntry, FetchAuditLogAnswer } from '../../shared/cockpit'
import type { Db } from '../db/client'
import { auditLog } from '../db/schema'

// The admin audit log: one row per admin action, never changed or removed (the table's trigger
// refuses it). Callers pass only what the action was about: never a password or a licence key.

export interface AuditRecord {
  action: AuditAction
  actor: string
  target?: string | number | null
  details?: Record<string, unknown>
}

/** What an audited call came to: its answer, or what it threw. */
export type CallOutcome = { ok: true; result: Record<string, unknown> } | { ok: false; error: unknown }

/** An audited call after it ran, as its `audit` field sees it (src/server/rpc.ts). */
export interface AuditedCall<I, B> {
  /** The call's payload, as its schema parsed it. */
  input: I
  outcome: CallOutcome
  /** The admin who made the call, 'unknown' without a session. */
  actor: string
  /** What the audit's `before` answered; undefined without one, or when it failed. */
  before: B | undefined
}

/**
 * How an admin call is audited, declared on the call (`defineRpc({ …, audit })`): an optional look
 * at the state before it runs, and the entries its outcome comes to. Never a password, a secret, a
 * token or a licence key in them.
 */
export interface RpcAudit<I, B = unknown> {
  before?: (db: Db, input: I, request: FastifyRequest) => Promise<B>
  entries: (call: AuditedCall<I, B>) => AuditRecord[]
}

const succeeded = (outcome: CallOutcome): outcome is { ok: true; result: Record<string, unknown> } =>
  outcome.ok && outcome.result.success === true

/** The usual audit: one entry when the call answered success, none otherwise. */
export function onSuccess<I, B = unknown>(
  make: (call: AuditedCall<I, B> & { result: Record<string, unknown> }) => AuditRecord,
): (call: AuditedCall<I, B>) => AuditRecord[] {
  return (call) => (succeeded(call.outcome) ? [make({ ...call, result: call.outcome.result })] : [])
}

/** Which of the fields in `after` differ from `before` (the names, never the values). */
export function changedKeys(before: object, after: object): string[] {
  const was = before as Record<string, unknown>
  const now = after as Record<string, unknown>
  return Object.keys(now).filter(
    (key) => now[key] !== undefined && JSON.stringify(was[key]) !== JSON.stringify(now[key]),
  )
}

/** Where the request came from: address and browser. */
export function requestOrigin(request: FastifyRequest): { ip: string; userAgent: string } {
  return { ip: request.ip, userAgent: String(request.headers['user-agent'] ?? '').slice(0, 500) }
}

export async function recordAudit(db: Db, request: FastifyRequest, entry: AuditRecord): Promise<void> {
  const { ip, userAgent } = requestOrigin(request)
  await db.insert(auditLog).values({
    action: entry.action,
    actor: entry.actor.slice(0, 200),
    ip,
    userAgent,
    target: entry.target === undefined || entry.target === null ? null : String(entry.target),
    details: entry.details ?? {},
  })
}

export async function listAudit(
  db: Db,
  opts: { action?: AuditAction; from?: Date; to?: Date; page: number; pageSize: number },
): Promise<FetchAuditLogAnswer> {
  const conditions: SQL[] = []
  if (opts.action) conditions.push(eq(auditLog.action, opts.action))
  if (opts.from) conditions.push(gte(auditLog.at, opts.from))
  if (opts.to) conditions.push(lte(auditLog.at, opts.to))
  const where = conditions.length ? and(...conditions) : undefined
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(opts.pageSize)
      .offset((opts.page - 1) * opts.pageSize),
    db.select({ n: count() }).from(auditLog).where(where),
  ])
  return {
    success: true,
    entries: rows.map(
      (r): AuditEntry => ({
        id: r.id,
        at: r.at.toISOString(),
        action: r.action,
        actor: r.actor,
        ip: r.ip,
        user_agent: r.userAgent,
        target: r.target,
        details: r.details,
      }),
    ),
    total_count: counted?.n ?? 0,
    page: opts.page,
    page_size: opts.pageSize,
  }
}
