import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import * as z from 'zod'
import type { ApiKeyScope } from '../../shared/api-keys'
import type { ChainRegistry } from '../chains/chain-registry'
import type { Db } from '../db/client'
import type { Env } from '../env'
import { AppError } from '../errors'
import { rateLimitKey } from '../lib/client-address'
import { createWindowLimiter } from '../lib/window-limiter'
import { type ApiCaller, findApiKey, storeIdOf } from './api-keys.repo'
import {
  createInvoiceRequestSchema,
  type InvoiceData,
  type InvoiceStatus,
  listInvoicesQuerySchema,
  markInvoiceStatusRequestSchema,
} from './greenfield-schemas'
import { registerGreenfieldWebhooks } from './greenfield-webhooks.routes'
import { InvoiceRefused, type InvoiceService } from './invoice-service'
import { paymentMethodsOf } from './invoice-view'
import { type InvoiceWithOrder, listInvoices } from './invoices.repo'
import { openApiDocument } from './openapi'

// The Greenfield invoice API under /api/v1 (decision 055): `Authorization: token <key>`, one store,
// invoices and their payment methods. Every refusal is in Greenfield's shapes: `{ code, message }`,
// or for a request that fails its schema `[{ path, message }]` naming each field; never a 5xx for
// anything a client sends. Rate limited per client before the key is looked up, then per key.

export interface GreenfieldOptions {
  db: Db
  chains: ChainRegistry
  invoices: InvoiceService
  /** API_RATE_PER_CLIENT, API_RATE_PER_KEY, WEBHOOK_ALLOW_PRIVATE. */
  env: Pick<Env, 'API_RATE_PER_CLIENT' | 'API_RATE_PER_KEY' | 'WEBHOOK_ALLOW_PRIVATE'>
  /** The shop's public address: the document's server. */
  publicUrl: string
}

/** A Greenfield error: its HTTP status, code and sentence. */
export class GreenfieldError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    apiCaller?: ApiCaller
  }
}

/** Greenfield's validation error body: one entry per issue, its field as a dotted path. */
export function validationBody(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.slice(0, 20).map((issue) => ({ path: issue.path.join('.'), message: issue.message }))
}

function greenfieldErrorHandler(
  error: FastifyError | AppError | GreenfieldError | InvoiceRefused | z.ZodError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof z.ZodError) return reply.status(400).send(validationBody(error))
  if (error instanceof GreenfieldError)
    return reply
      .status(error.status)
      .headers(error.headers)
      .send({ code: error.code, message: error.message })
  if (error instanceof InvoiceRefused) {
    if (error.path) return reply.status(error.status).send([{ path: error.path, message: error.message }])
    return reply.status(error.status).send({ code: error.code, message: error.message })
  }
  if (error instanceof AppError) {
    const message = error.message.replace(/^Invalid request: /, '')
    return reply
      .status(error.status)
      .headers(error.headers)
      .send({ code: error.code.replace(/_/g, '-'), message })
  }
  const status = error.statusCode ?? 500
  if (status < 500) {
    const message =
      error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? 'Unsupported content type: send application/json'
        : error.message
    return reply.status(status).send({ code: 'invalid-request', message })
  }
  request.log.error({ err: error }, 'invoice API request failed')
  return reply.status(500).send({ code: 'server-error', message: 'Internal server error' })
}

function tooMany(waitMs: number): GreenfieldError {
  return new GreenfieldError(429, 'rate-limited', 'Too many requests: slow down', {
    'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))),
  })
}

const notFound = () => new GreenfieldError(404, 'invoice-not-found', 'The invoice was not found')

function bodyOf(request: FastifyRequest): object {
  const body = request.body
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new GreenfieldError(400, 'invalid-request', 'The body must be a JSON object')
  }
  return body
}

const SCAN_PAGE = 500
/** A list filtered by status reads at most this many invoices (newest first). */
const STATUS_SCAN = 5000

/** The list: by the seller's order ids and a period in SQL; by status (read from each order) here. */
async function invoiceList(opts: GreenfieldOptions, query: unknown, storeId: string): Promise<InvoiceData[]> {
  const q = listInvoicesQuerySchema.parse(query ?? {})
  const take = q.take ?? 100
  const skip = q.skip ?? 0
  const period = {
    orderIds: q.orderId === undefined ? undefined : [q.orderId].flat(),
    from: q.startDate !== undefined ? new Date(q.startDate * 1000) : undefined,
    to: q.endDate !== undefined ? new Date((q.endDate + 1) * 1000) : undefined,
  }
  if (q.status === undefined) {
    return opts.invoices.views(await listInvoices(opts.db, { ...period, limit: take, offset: skip }), storeId)
  }
  const statuses = new Set<InvoiceStatus>([q.status].flat())
  const out: InvoiceData[] = []
  let skipped = 0
  for (let offset = 0; offset < STATUS_SCAN && out.length < take; offset += SCAN_PAGE) {
    const rows = await listInvoices(opts.db, { ...period, limit: SCAN_PAGE, offset })
    for (const view of await opts.invoices.views(rows, storeId)) {
      if (!statuses.has(view.status)) continue
      if (skipped < skip) skipped++
      else if (out.length < take) out.push(view)
    }
    if (rows.length < SCAN_PAGE) break
  }
  return out
}

export async function registerGreenfieldApi(app: FastifyInstance, opts: GreenfieldOptions): Promise<void> {
  const perClient = createWindowLimiter({ limit: opts.env.API_RATE_PER_CLIENT, windowMs: 60_000 })
  const perKey = createWindowLimiter({ limit: opts.env.API_RATE_PER_KEY, windowMs: 60_000 })
  let storeId: string | null = null
  const store = async () => {
    storeId ??= await storeIdOf(opts.db)
    return storeId
  }

  /** The caller: the per-client limit first (a wrong key costs a guess), then the key, then its limit. */
  const authenticate = async (request: FastifyRequest) => {
    const wait = perClient.hit(rateLimitKey(request))
    if (wait > 0) throw tooMany(wait)
    const match = /^token\s+(\S{1,200})$/i.exec(request.headers.authorization ?? '')
    const caller = match?.[1] ? await findApiKey(opts.db, match[1]) : null
    if (!caller) {
      throw new GreenfieldError(
        401,
        'unauthenticated',
        'Authentication is required for accessing this endpoint',
      )
    }
    const keyWait = perKey.hit(String(caller.keyId))
    if (keyWait > 0) throw tooMany(keyWait)
    request.apiCaller = caller
  }

  const allow = async (request: FastifyRequest, scopeName: ApiKeyScope, params: { storeId?: string }) => {
    if (!request.apiCaller?.scopes.has(scopeName)) {
      throw new GreenfieldError(
        403,
        'missing-permission',
        `Insufficient API Permissions. Please use an API key with permission: ${scopeName}`,
      )
    }
    if (params.storeId !== undefined && params.storeId !== (await store())) {
      throw new GreenfieldError(404, 'store-not-found', 'The store was not found')
    }
  }
  const invoiceOf = async (id: string): Promise<InvoiceWithOrder> => {
    const found = id.length <= 64 ? await opts.invoices.find(id) : null
    if (!found) throw notFound()
    return found
  }
  const one = async (found: InvoiceWithOrder) => (await opts.invoices.views([found], await store()))[0]

  type StoreParams = { storeId: string }
  type InvoiceParams = { storeId: string; invoiceId: string }

  await app.register(
    async (scope) => {
      scope.setErrorHandler(greenfieldErrorHandler)
      // The document is public: the API's shape is no secret.
      let document: string | null = null
      scope.get('/openapi.json', async (_request, reply) => {
        document ??= JSON.stringify(openApiDocument(opts.publicUrl))
        return reply.header('content-type', 'application/json; charset=utf-8').send(document)
      })
      scope.addHook('onRequest', async (request) => {
        if (request.routeOptions.url !== '/api/v1/openapi.json') await authenticate(request)
      })

      scope.get('/api-keys/current', async (request) => {
        const id = await store()
        const scopes = [...(request.apiCaller as ApiCaller).scopes]
        return { apiKey: null, label: null, permissions: scopes.map((s) => `${s}:${id}`) }
      })

      scope.post<{ Params: StoreParams }>('/stores/:storeId/invoices', async (request) => {
        await allow(request, 'btcpay.store.cancreateinvoice', request.params)
        const input = createInvoiceRequestSchema.parse(bodyOf(request))
        const id = await opts.invoices.create(input, request.apiCaller?.keyId ?? null)
        return one(await invoiceOf(id))
      })

      scope.get<{ Params: StoreParams }>('/stores/:storeId/invoices', async (request) => {
        await allow(request, 'btcpay.store.canviewinvoices', request.params)
        return invoiceList(opts, request.query, await store())
      })

      scope.get<{ Params: InvoiceParams }>('/stores/:storeId/invoices/:invoiceId', async (request) => {
        await allow(request, 'btcpay.store.canviewinvoices', request.params)
        return one(await invoiceOf(request.params.invoiceId))
      })

      scope.get<{ Params: InvoiceParams }>(
        '/stores/:storeId/invoices/:invoiceId/payment-methods',
        async (request) => {
          await allow(request, 'btcpay.store.canviewinvoices', request.params)
          return paymentMethodsOf(opts.db, opts.chains, (await invoiceOf(request.params.invoiceId)).order)
        },
      )

      scope.post<{ Params: InvoiceParams }>(
        '/stores/:storeId/invoices/:invoiceId/status',
        async (request) => {
          await allow(request, 'btcpay.store.canmodifyinvoices', request.params)
          const { status } = markInvoiceStatusRequestSchema.parse(bodyOf(request))
          await opts.invoices.mark(await invoiceOf(request.params.invoiceId), status, await store())
          return one(await invoiceOf(request.params.invoiceId))
        },
      )

      registerGreenfieldWebhooks(scope, {
        db: opts.db,
        allowPrivate: opts.env.WEBHOOK_ALLOW_PRIVATE,
        allow,
        notFound: () =>
          new GreenfieldError(404, 'webhook-not-found', 'The webhook or delivery was not found'),
        badRequest: (message) => new GreenfieldError(400, 'invalid-request', message),
      })

      scope.all('/*', async () => {
        throw new GreenfieldError(404, 'not-found', 'No such endpoint in this API')
      })
    },
    { prefix: '/api/v1' },
  )
}
