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
