import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodType, z } from 'zod'
import { AppError } from './errors'
import { localizeAnswer, localizeRefusal, requestLocale } from './i18n/refusals'

export interface RpcContext {
  request: FastifyRequest
  reply: FastifyReply
}

export interface RpcDefinition<S extends ZodType = ZodType> {
  name: string
  input: S
  /** Admin calls pass through the admin guard before the handler runs. */
  admin?: boolean
  handler: (input: z.infer<S>, ctx: RpcContext) => Promise<unknown>
}

export function defineRpc<S extends ZodType>(def: RpcDefinition<S>): RpcDefinition<S> {
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
  private readonly calls = new Map<string, RpcDefinition>()
  adminGuard: AdminGuard = denyAll

  add(...defs: RpcDefinition[]): void {
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

  register(app: FastifyInstance): void {
    app.route({
      method: ['GET', 'PUT', 'PATCH', 'DELETE'],
      url: '/rpc/:name',
      handler: async () => {
        throw new AppError('method_not_allowed', 'Use POST for RPC calls', { allow: 'POST' })
      },
    })
    app.post<{ Params: { name: string } }>('/rpc/:name', async (request, reply) => {
      const def = this.calls.get(request.params.name)
      if (!def) throw new AppError('not_found', `Unknown call ${request.params.name.slice(0, 64)}`)
      const body = request.body ?? {}
      if (typeof body !== 'object' || Array.isArray(body)) {
        throw new AppError('bad_request', 'Invalid request: the body must be a JSON object')
      }
      const ctx: RpcContext = { request, reply }
      if (def.admin) await this.adminGuard(ctx)
      const parsed = def.input.safeParse(body)
      if (!parsed.success) throw new AppError('bad_request', describeZodError(parsed.error))
      reply.header('cache-control', 'no-store')
      if (def.admin) return def.handler(parsed.data, ctx)
      // A buyer reads the refusals in the shop's language (the admin's calls stay English).
      const locale = requestLocale(request.headers)
      if (locale === 'en') return def.handler(parsed.data, ctx)
      try {
        return localizeAnswer(await def.handler(parsed.data, ctx), locale)
      } catch (error) {
        if (!(error instanceof AppError)) throw error
        throw new AppError(error.code, localizeRefusal(error.message, locale), error.headers)
      }
    })
  }
}
