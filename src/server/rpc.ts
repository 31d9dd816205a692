import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodType, z } from 'zod'
import { type CallOutcome, type RpcAudit, recordAudit } from './audit/audit-log'
import type { Db } from './db/client'
import { AppError } from './errors'
import { localizeAnswer, requestLocale, translateRefusal } from './i18n/refusals'

export interface RpcContext {
  request: FastifyRequest
  reply: FastifyReply
}

// biome-ignore lint/suspicious/noExplicitAny: a list of calls holds audits of any before-state
export interface RpcDefinition<S extends ZodType = ZodType, B = any> {
  name: string
  input: S
  /** Admin calls pass through the admin guard before the handler runs. */
  admin?: boolean
  handler: (input: z.infer<S>, ctx: RpcContext) => Promise<unknown>
  /** The audit log's entries for this call (admin actions; reads are not audited). The one way to audit a call. */
  audit?: RpcAudit<z.infer<S>, B>
}

export function defineRpc<S extends ZodType, B = unknown>(def: RpcDefinition<S, B>): RpcDefinition<S, B> {
  return def
}

/** Checks an admin call; throws AppError (401/403) when it may not run. Installed by the admin module. */
export type AdminGuard = (ctx: RpcContext) => Promise<void>

const denyAll: AdminGuard = async () => {
  throw new AppError('unauthorized', 'Unauthorized')
}

/** Renders a zod failure as one readable sentence naming the fields. */
export function describeZodError(error: z.ZodError): string {
  const parts = error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.length ? issue.path.join('.') : 'payload'
    if (issue.code === 'unrecognized_keys') return `unknown field(s) ${issue.keys.join(', ')}`
    return `${path}: ${issue.message}`
  })
  return `Invalid request: ${parts.join('; ')}`
}

/**
 * POST /rpc/<call> with a JSON object body holding the call's payload fields.
 * Business refusals are 200 { success: false, error }; malformed payloads are 400.
 */
export class RpcRegistry {
  // biome-ignore lint/suspicious/noExplicitAny: each call's audit is typed by its own schema
  private readonly calls = new Map<string, RpcDefinition<ZodType, any>>()
  adminGuard: AdminGuard = denyAll
  /** Who made a call, for the audit log ('unknown' when nobody is logged in). Installed by the admin module. */
  actorOf: (ctx: RpcContext) => string = () => 'unknown'
  /** Where audit entries are written; set before the first audited call runs. */
  auditDb: Db | null = null

  // biome-ignore lint/suspicious/noExplicitAny: each call's audit is typed by its own schema
  add(...defs: RpcDefinition<any, any>[]): void {
    for (const def of defs) {
      if (this.calls.has(def.name)) throw new Error(`RPC ${def.name} registered twice`)
      this.calls.set(def.name, def)
    }
  }

  has(name: string): boolean {
    return this.calls.has(name)
  }

  /** Every registered call, for checks that walk all payload schemas. */
  list(): readonly RpcDefinition[] {
    return [...this.calls.values()]
  }

  /**
   * Runs an audited call and writes the entries its outcome comes to. A look at the state before
   * never fails the call (an id out of range is the handler's 400 to give, not the audit's 500), and
   * a failing audit write is logged, never turned into a failed action: the action has happened.
   */
  // biome-ignore lint/suspicious/noExplicitAny: each call's audit is typed by its own schema
  private async audited(def: RpcDefinition<ZodType, any>, input: unknown, ctx: RpcContext): Promise<unknown> {
    const audit = def.audit as RpcAudit<unknown, unknown>
    const db = this.auditDb
    if (!db) throw new Error('RpcRegistry.auditDb is not set')
    const before = audit.before
      ? await audit.before(db, input, ctx.request).catch(() => undefined)
      : undefined
    let outcome: CallOutcome
    let result: unknown
    try {
      result = await def.handler(input, ctx)
      outcome = { ok: true, result: (result ?? {}) as Record<string, unknown> }
    } catch (error) {
      outcome = { ok: false, error }
    }
    try {
      for (const entry of audit.entries({ input, outcome, actor: this.actorOf(ctx), before })) {
        await recordAudit(db, ctx.request, entry)
      }
    } catch (error) {
      ctx.request.log.error({ err: error, call: def.name }, 'audit log write failed')
    }
    if (!outcome.ok) throw outcome.error
    return result
  }

  register(app: FastifyInstance): void {
    app.route({
      method: ['GET', 'PUT', 'PATCH', 'DELETE'],
      url: '/rpc/:name',
      handler: async () => {
        throw new AppError('method_not_allowed', 'Use POST for RPC calls', { allow: 'POST' })
      },
    })
    // An admin call's guard (session, origin, browser) answers first, before the body is even
    // parsed: without a session every admin call is a 401 and cross-site a 403, whatever the payload
    // holds (malformed JSON, a NUL character, a wrong field). Only headers are read here.
    const guardAdminCall = async (
      request: FastifyRequest<{ Params: { name: string } }>,
      reply: FastifyReply,
    ) => {
      if (this.calls.get(request.params.name)?.admin) await this.adminGuard({ request, reply })
    }
    app.post<{ Params: { name: string } }>(
      '/rpc/:name',
      { onRequest: guardAdminCall },
      async (request, reply) => {
        const def = this.calls.get(request.params.name)
        if (!def) throw new AppError('not_found', `Unknown call ${request.params.name.slice(0, 64)}`)
        const body = request.body ?? {}
        if (typeof body !== 'object' || Array.isArray(body)) {
          throw new AppError('bad_request', 'Invalid request: the body must be a JSON object')
        }
        const ctx: RpcContext = { request, reply }
        const parsed = def.input.safeParse(body)
        if (!parsed.success) throw new AppError('bad_request', describeZodError(parsed.error))
        reply.header('cache-control', 'no-store')
        const run = () => (def.audit ? this.audited(def, parsed.data, ctx) : def.handler(parsed.data, ctx))
        if (def.admin) return run()
        // A buyer reads the refusals in the shop's language (the admin's calls stay English).
        const locale = requestLocale(request.headers)
        if (locale === 'en') return run()
        try {
          return localizeAnswer(await run(), locale)
        } catch (error) {
          if (!(error instanceof AppError) || !error.refusal) throw error
          throw new AppError(error.code, translateRefusal(error.refusal, locale), error.headers)
        }
      },
    )
  }
}
