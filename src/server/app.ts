import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import fastifyCookie from '@fastify/cookie'
import fastifyStatic from '@fastify/static'
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify'
import { adminRpcs } from './admin/admin.routes'
import { createAdminGuard } from './admin/admin-auth'
import { catalogRpcs } from './catalog/catalog.routes'
import { type CatalogService, createCatalogService } from './catalog/catalog.service'
import { contentRpcs } from './content/content.routes'
import { type ContentService, createContentService } from './content/content.service'
import type { Database } from './db/client'
import { dashboardRpcs } from './delivery/dashboard.routes'
import type { FulfilContext } from './delivery/fulfil-order'
import type { Env } from './env'
import { AppError } from './errors'
import { packageRoot } from './lib/paths'
import { createSignal, type Signal } from './lib/signal'
import { ordersRpcs } from './orders/orders.routes'
import { toleranceToMicros } from './payments/credit-order'
import { paymentsRpcs } from './payments/payments.routes'
import { createTronClient, type TronClient } from './payments/tron-client'
import { createTrxPriceSource, type TrxPriceSource } from './pricing/trx-price'
import { RpcRegistry } from './rpc'
import { registerSecurityHeaders } from './security-headers'

export interface AppServices {
  env: Env
  database: Database
  catalog: CatalogService
  content: ContentService
  rpc: RpcRegistry
  /** TRX/USD rate, shared by checkout and the payment watcher. */
  prices: TrxPriceSource
  /** The chain explorer; one request budget (EXPLORER_MAX_RPS) for the watcher and confirm calls. */
  tron: TronClient
  /** PAYMENT_TOLERANCE in micro-dollars. */
  toleranceMicros: bigint
  /** Base of links in e-mails: PUBLIC_URL, or http://localhost:PORT. */
  fulfil: FulfilContext
  /** An order became paid in this process (main.ts wakes the mail worker on it). */
  orderPaid: Signal<string>
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices
  }
}

export interface BuildAppOptions {
  env: Env
  database: Database
  /** Pino logging; off in tests. */
  logger?: boolean
  /** Folder of the built SPA; defaults to dist/web. */
  webRoot?: string
}

export const BODY_LIMIT = 1024 * 1024

/** Builds the app: plugins, modules, routes. No listen, no timers (main.ts starts those). */
export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { env, database } = opts
  const app = Fastify({
    logger: opts.logger ? { level: env.LOG_LEVEL } : false,
    bodyLimit: BODY_LIMIT,
    // Fastify takes a boolean, a hop count or addresses; the union type alone trips its overloads.
    trustProxy: env.TRUST_PROXY as boolean,
  })

  // One cache policy: a single PGlite process sees every write; several PostgreSQL processes
  // see each other's writes after a few seconds.
  const cacheTtl = database.kind === 'pglite' ? Number.POSITIVE_INFINITY : 5_000
  const services: AppServices = {
    env,
    database,
    catalog: createCatalogService(database, cacheTtl),
    content: createContentService(database, cacheTtl),
    rpc: new RpcRegistry(),
    prices: createTrxPriceSource({ source: env.PRICE_SOURCE, baseUrl: env.PRICE_API_URL }),
    tron: createTronClient({
      baseUrl: env.TRON_API_URL,
      apiKey: env.TRON_API_KEY,
      usdtContract: env.USDT_CONTRACT,
      maxRps: env.EXPLORER_MAX_RPS,
    }),
    toleranceMicros: toleranceToMicros(env.PAYMENT_TOLERANCE),
    fulfil: { publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}` },
    orderPaid: createSignal<string>(),
  }
  app.decorate('services', services)

  // An empty body on a call with no payload means {}.
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body)
    if (text.trim() === '') return done(null, undefined)
    try {
      done(null, JSON.parse(text))
    } catch {
      done(new AppError('bad_request', 'Invalid request: the body is not valid JSON'), undefined)
    }
  })

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).headers(error.headers).send({ success: false, error: error.message })
    }
    const status = error.statusCode ?? 500
    if (status < 500) {
      const message =
        error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? `Request body is too large (limit ${BODY_LIMIT} bytes)`
          : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? 'Unsupported content type: send application/json'
            : error.message
      return reply.status(status).send({ success: false, error: message })
    }
    request.log.error({ err: error }, 'request failed')
    return reply.status(500).send({ success: false, error: 'Internal server error' })
  })

  registerSecurityHeaders(app, { https: env.PUBLIC_URL?.startsWith('https:') ?? false })
  await app.register(fastifyCookie)

  services.rpc.add(
    ...catalogRpcs(services.catalog),
    ...contentRpcs(services.content),
    ...ordersRpcs(database, env, services.prices),
    ...dashboardRpcs(database),
    ...paymentsRpcs(database, services.tron, {
      toleranceMicros: services.toleranceMicros,
      fulfil: services.fulfil,
      onPaid: services.orderPaid.emit,
    }),
    ...adminRpcs(services),
  )
  services.rpc.adminGuard = createAdminGuard(database.db, env)
  services.rpc.register(app)

  app.get('/api/health', async (_request, reply) => {
    const ok = await database.ping()
    reply.header('cache-control', 'no-store')
    if (!ok) return reply.status(503).send({ status: 'unavailable' })
    return { status: 'ok' }
  })

  await registerWeb(app, opts.webRoot ?? join(packageRoot(), 'dist', 'web'))
  return app
}

/** Serves the built SPA: files as they are, every other GET the index.html (client-side routing). */
async function registerWeb(app: FastifyInstance, root: string): Promise<void> {
  const indexFile = join(root, 'index.html')
  const hasWeb = existsSync(indexFile)
  const indexHtml = hasWeb ? readFileSync(indexFile) : undefined
  if (hasWeb) {
    // Directories are never served: without Accept-Encoding the static plugin would answer them
    // 403, with it the SPA. They all get the SPA, whatever the request's encodings.
    const directories = new Set(['/', ...listDirectories(root)])
    await app.register(fastifyStatic, {
      root,
      preCompressed: true,
      index: false,
      allowedPath: (pathName) => !directories.has(pathName.replace(/\/+$/, '') || '/'),
      setHeaders(res, path) {
        // Vite puts a content hash in every asset name under /assets.
        if (path.includes(`${join('assets', '')}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable')
        } else {
          res.header('cache-control', 'public, max-age=3600')
        }
      },
    })
  }
  app.setNotFoundHandler(async (request, reply) => {
    const isApi = request.url.startsWith('/rpc/') || request.url.startsWith('/api/')
    if (!isApi && (request.method === 'GET' || request.method === 'HEAD') && indexHtml) {
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml)
    }
    return reply.status(404).send({ success: false, error: `Not found: ${request.method} ${request.url}` })
  })
}

/** Every folder under root, as URL paths ("/assets"). */
function listDirectories(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `/${relative(root, join(entry.parentPath, entry.name)).split(sep).join('/')}`)
}
