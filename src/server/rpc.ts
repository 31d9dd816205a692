import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodType, z } from 'zod'
import { AppError } from './errors'

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

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * Finds the first string (value or key) PostgreSQL cannot store: a NUL character or an unpaired
 * UTF-16 surrogate. Answers its path (e.g. "p_items.0.product.name"), or null when all are clean.
 */
export function findUnstorableText(value: unknown, path: string[] = [], depth = 0): string | null {
  const bad = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text)
  const here = () => (path.length ? path.join('.') : 'payload')
  if (typeof value === 'string') return bad(value) ? here() : null
  if (value === null || typeof value !== 'object' || depth > 64) return null
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], [...path, String(i)], depth + 1)
      if (found) return found
    }
    return null
  }
  for (const [key, item] of Object.entries(value)) {
    if (bad(key)) return path.length ? `${here()} (a field name)` : 'a field name'
    const found = findUnstorableText(item, [...path, key], depth + 1)
    if (found) return found
  }
  return null
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
      // Checked once here for every call: the database refuses such text with an error, not a 400.
      const unstorable = findUnstorableText(body)
      if (unstorable) {
        throw new AppError(
          'bad_request',
          `Invalid request: ${unstorable} contains a NUL character or an unpaired surrogate`,
        )
      }
      const parsed = def.input.safeParse(body)
      if (!parsed.success) throw new AppError('bad_request', describeZodError(parsed.error))
      reply.header('cache-control', 'no-store')
      return def.handler(parsed.data, ctx)
    })
  }
}
