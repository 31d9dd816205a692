import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fastifyCookie from '@fastify/cookie'
import fastifyStatic from '@fastify/static'
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify'
import { firstChain } from '../shared/chains'
import { adminRpcs } from './admin/admin.routes'
import { adminActorOf, createAdminGuard } from './admin/admin-auth'
import { adminLicenceRpcs } from './admin/admin-licences.routes'
import { cockpitRpcs } from './admin/cockpit.routes'
import { registerExportRoutes } from './admin/export.routes'
import { catalogRpcs, productsForSale } from './catalog/catalog.routes'
import { type CatalogService, createCatalogService } from './catalog/catalog.service'
import { registerChainGauges, registerProviderGauges } from './chains/chain-gauges'
import { type ChainRegistry, createChainRegistry } from './chains/chain-registry'
import { buildChains } from './chains/families'
import { registerFollowerGauges } from './chains/follower-gauges'
import {
  createSightingWatcher,
  registerSightingGauges,
  type SightingWatcher,
} from './chains/sighting-watcher'
import { contentAdminRpcs, contentRpcs } from './content/content.routes'
import { type ContentService, createContentService } from './content/content.service'
import type { Database } from './db/client'
import { dashboardRpcs } from './delivery/dashboard.routes'
import { orderLinkRpcs } from './delivery/order-links.routes'
import { discountRpcs } from './discounts/discounts.routes'
import type { Env } from './env'
import { AppError } from './errors'
import { apiKeyRpcs } from './invoices/api-keys.routes'
import { registerInvoiceApis } from './invoices/invoice-apis'
import { invoiceOfOrderIs, invoicePageRpcs, registerInvoicePage } from './invoices/invoice-page.routes'
import { createInvoiceService, type InvoiceService } from './invoices/invoice-service'
import { invoiceWebhookRpcs } from './invoices/invoice-webhooks-admin.routes'
import { registerLicenceApi } from './keys/licence-api.routes'
import { createLicenceSigner, type LicenceSigner } from './keys/licence-signing'
import { cachedValue } from './lib/cached-value'
import { acceptJsonBodies } from './lib/json-body'
import { packageRoot } from './lib/paths'
import { createSignal, type Signal } from './lib/signal'
import { inlineStylesheets, listDirectories } from './lib/web-files'
import { createMetrics, type Metrics, registerMetricsRoutes } from './metrics/metrics'
import { registerShopGauges } from './metrics/shop-gauges'
import { setupRpcs } from './ops/setup.routes'
import { ordersRpcs } from './orders/orders.routes'
import { chainsRpcs } from './payments/chains.routes'
import { networksRpcs, paymentNetworks } from './payments/networks.routes'
import { createOrderWatch, type OrderWatch } from './payments/order-watch'
import { type PaymentRules, percentToBasisPoints, toleranceToMicros } from './payments/payment-rules'
import { paymentsRpcs } from './payments/payments.routes'
import { createPaymentDelay, createShopHealth, type ShopHealth } from './payments/payments-health'
import { providersRpcs } from './payments/providers.routes'
import { reconcileRpcs } from './payments/reconcile.routes'
import { sightingsRpcs } from './payments/sightings.routes'
import { registerStatusStreamRoute } from './payments/status-stream.routes'
import { createTrxPriceSource, type TrxPriceSource } from './pricing/trx-price'
import { refundRpcs } from './refunds/refunds.routes'
import { pageLocale } from './render/page-locale'
import { compressHtml, createPageCache, htmlEncoding, loadRenderer, renderPage } from './render/render-page'
import { RpcRegistry } from './rpc'
import { registerSecurityHeaders } from './security-headers'
import { settingsRpcs } from './settings/settings'
import { registerStorableTextCheck } from './storable-text'
import { webhookRpcs } from './webhooks/webhooks.routes'

export interface AppServices {
  env: Env
  database: Database
  catalog: CatalogService
  content: ContentService
  rpc: RpcRegistry
  /** TRX/USD rate: checkout locks it into each TRX order (the follower and settlement use the order's locked rate, never this). */
  prices: TrxPriceSource
  /** The enabled chains (decision 037): each gets a follower and a sighting watcher. */
  chains: ChainRegistry
  /** Tolerance, cool-down, windows and the dashboard link's base: what every path to paid shares. */
  rules: PaymentRules
  /** The shop's health (pool, ledger, follower, providers): the admin's sales view and the alerts read it. */
  health: ShopHealth
  /** An order became paid in this process (server.ts wakes the mail worker on it). */
  orderPaid: Signal<string>
  /**
   * A buyer wants to pay in this process: an order placed, or a checkout refused while detection
   * lags (server.ts wakes an idle chain follower on it, decision 045).
   */
  checkoutAsked: Signal<void>
  /** A buyer asked to have their orders e-mailed (server.ts wakes the order-links worker on it). */
  orderLinksAsked: Signal<void>
  /** A request queued an e-mail (a refund's): wakes the mail worker. */
  mailQueued: Signal<void>
  /** The admin queued a webhook delivery again (server.ts wakes the webhook worker). */
  webhookQueued: Signal<void>
  /** Prometheus registry: metrics.gauge(name, help, collect) adds a gauge read at scrape time. */
  metrics: Metrics
  /** Told of an order's news: wakes the payment page's stream and its waiting status calls. */
  orderWatch: OrderWatch
  /** TRON's sighting watcher (decision 024): built here, started by server.ts; null when SIGHTINGS=false. */
  sightings: SightingWatcher | null
  /** Every enabled chain's sighting watcher (TRON's first); empty when SIGHTINGS=false. */
  sightingWatchers: SightingWatcher[]
  /** Signs licence tokens and publishes their public keys (decision 038). */
  licenceSigner: LicenceSigner
  /** Invoices of the API (decision 055): each an order placed through the orders module. */
  invoices: InvoiceService
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
  /** The chain follower's instance id: the sighting watcher runs while that follower leads. */
  instanceId?: string
}

export const BODY_LIMIT = 1024 * 1024

export function paymentRulesOf(env: Env): PaymentRules {
  const graceMs = env.LATE_PAYMENT_GRACE_MINUTES * 60_000
  return {
    toleranceMicros: toleranceToMicros(env.PAYMENT_TOLERANCE),
    tolerancePercentBp: percentToBasisPoints(env.PAYMENT_TOLERANCE_PERCENT),
    cooldownMs: env.ADDRESS_COOLDOWN_MINUTES === undefined ? graceMs : env.ADDRESS_COOLDOWN_MINUTES * 60_000,
    windowMs: env.PAYMENT_WINDOW_MINUTES * 60_000,
    graceMs,
    fulfil: { publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}` },
  }
}

/** Builds the app: plugins, modules, routes. No listen, no timers (server.ts starts those). */
export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { env, database } = opts
  // Per-request log lines cost a large share of throughput: at debug (or trace) every request is
  // logged; otherwise only errors and requests slower than LOG_SLOW_REQUEST_MS.
  const logEveryRequest = env.LOG_LEVEL === 'debug' || env.LOG_LEVEL === 'trace'
  const app = Fastify({
    logger: opts.logger ? { level: env.LOG_LEVEL } : false,
    logController: new LogController({ disableRequestLogging: !logEveryRequest }),
    // A hop count trusts that many proxies nearest to us (the types lack the number form).
    trustProxy:
      typeof env.TRUST_PROXY === 'number'
        ? (_address: string, hop: number) => hop < (env.TRUST_PROXY as number)
        : env.TRUST_PROXY,
    bodyLimit: BODY_LIMIT,
  })
  if (opts.logger && !logEveryRequest) {
    app.addHook('onResponse', async (request, reply) => {
      if (reply.elapsedTime < env.LOG_SLOW_REQUEST_MS) return
      request.log.warn(
        {
          method: request.method,
          url: request.url,
          statusCode: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
        },
        'slow request',
      )
    })
  }
  const metrics = createMetrics({ token: env.METRICS_TOKEN, logger: app.log.child({ module: 'metrics' }) })

  // One cache policy: a single PGlite process sees every write; several PostgreSQL processes
  // see each other's writes after a few seconds.
  const cacheTtl = database.kind === 'pglite' ? Number.POSITIVE_INFINITY : 5_000
  const chains = createChainRegistry(
    await buildChains(env, {
      fetch: metrics.explorerFetch(fetch),
      onSetAside: (chain, name, reason) =>
        app.log.error(
          { chain, provider: name, reason },
          'chain provider set aside: its blocks disagree with ours',
        ),
    }),
  )
  // The first chain is always followed: the shop's health, its alerts and the provider-only series
  // of /metrics (decision 032) read its providers; every chain's are on the Chain tab and in /metrics.
  const firstProviders = chains.require(firstChain).providers
  const rules = paymentRulesOf(env)
  const prices = createTrxPriceSource({ source: env.PRICE_SOURCE, baseUrl: env.PRICE_API_URL })
  const services: AppServices = {
    env,
    database,
    chains,
    catalog: createCatalogService(database, cacheTtl),
    content: createContentService(database, cacheTtl),
    rpc: new RpcRegistry(),
    prices,
    rules,
    health: createShopHealth(database.db, firstProviders, () => chains.enabled()),
    orderPaid: createSignal<string>(),
    checkoutAsked: createSignal<void>(),
    orderLinksAsked: createSignal<void>(),
    mailQueued: createSignal<void>(),
    webhookQueued: createSignal<void>(),
    metrics,
    orderWatch: createOrderWatch(),
    sightings: null,
    sightingWatchers: [],
    licenceSigner: createLicenceSigner(database.db, {
      tokenLifeMs: env.LICENCE_TOKEN_DAYS * 86_400_000,
      cacheMs: cacheTtl,
    }),
    invoices: createInvoiceService({
      db: database.db,
      chains,
      rules,
      trxRate: () => prices.getRate(),
      publicUrl: rules.fulfil.publicUrl,
      maxInFlight: database.kind === 'pglite' ? 1 : 2,
      onPaid: (id) => services.orderPaid.emit(id),
      onPlaced: () => services.checkoutAsked.emit(),
    }),
  }
  if (env.SIGHTINGS) {
    // One watcher per chain, each on its own loop: one chain's outage never slows another's.
    services.sightingWatchers = chains.enabled().map((chain) =>
      createSightingWatcher({
        db: database.db,
        chain,
        blockIntervalMs: chain.followEveryMs ?? chain.blockIntervalMs,
        // The follower's requests a second once caught up: a chain's own figure, else TRON's (~2.2 a block).
        followerPerSecond: chain.followerRequestsPerSecond,
        instanceId: opts.instanceId,
        onChange: (ids) => services.orderWatch.notify(ids),
        logger: app.log.child({ module: 'sightings', chain: chain.chain }),
      }),
    )
    // The first chain's watcher keeps the unlabelled sightings series (decision 032).
    services.sightings = services.sightingWatchers[0] ?? null
  }
  services.orderPaid.on((id) => services.orderWatch.notify([id]))
  app.decorate('services', services)

  acceptJsonBodies(app)

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
  registerStorableTextCheck(app)
  await app.register(fastifyCookie)

  const paymentDelay = createPaymentDelay(database.db, env.PAYMENT_DELAY_NOTICE_MINUTES * 60, () =>
    services.chains.enabled().map((c) => c.chain),
  )
  services.rpc.add(
    ...catalogRpcs(services.catalog, database.db),
    ...contentRpcs(services.content),
    ...contentAdminRpcs(services.content),
    ...ordersRpcs(
      database,
      env,
      services.rules,
      services.prices,
      paymentDelay,
      services.chains,
      () => services.checkoutAsked.emit(),
      () => services.sightingWatchers,
    ),
    ...dashboardRpcs(database),
    ...orderLinkRpcs(database, env, services.orderLinksAsked),
    ...paymentsRpcs(database, services.chains, {
      rules: services.rules,
      delay: paymentDelay,
      onPaid: services.orderPaid.emit,
      onFollowerBehind: () => services.checkoutAsked.emit(),
      watch: services.orderWatch,
      blockIntervalMs: env.CHAIN_BLOCK_MS,
      invoiceOfOrder: (invoiceId, orderId) => invoiceOfOrderIs(services.invoices, invoiceId, orderId),
    }),
    ...invoicePageRpcs(services.invoices, services.chains),
    ...providersRpcs(database.db, services.chains, services.sightingWatchers),
    ...sightingsRpcs(database.db),
    ...networksRpcs(services.chains),
    ...chainsRpcs(database.db, services.chains),
    ...adminRpcs(services),
    ...adminLicenceRpcs(services, services.licenceSigner),
    ...cockpitRpcs(services),
    ...reconcileRpcs(database, services.chains),
    ...setupRpcs({ db: database.db, env, chains: services.chains }),
    ...settingsRpcs(database.db, env),
    ...discountRpcs(database),
    ...refundRpcs({
      db: database.db,
      chains: services.chains,
      publicUrl: services.rules.fulfil.publicUrl,
      rules: services.rules,
      mailQueued: services.mailQueued,
    }),
    ...apiKeyRpcs(database.db),
    ...invoiceWebhookRpcs(database.db, { allowPrivate: env.WEBHOOK_ALLOW_PRIVATE }),
    ...webhookRpcs(database.db, {
      allowPrivate: env.WEBHOOK_ALLOW_PRIVATE,
      onQueued: services.webhookQueued.emit,
    }),
  )
  services.rpc.adminGuard = createAdminGuard(database.db, env)
  services.rpc.actorOf = adminActorOf
  services.rpc.auditDb = database.db
  services.rpc.register(app)
  registerExportRoutes(app, database.db, services.rpc)
  registerStatusStreamRoute(app, database.db, services.orderWatch, env, (invoiceId, orderId) =>
    invoiceOfOrderIs(services.invoices, invoiceId, orderId),
  )
  await registerLicenceApi(app, {
    db: database.db,
    signer: services.licenceSigner,
    issuer: services.rules.fulfil.publicUrl.replace(/\/+$/, ''),
    perClientPerMinute: env.LICENCE_RATE_PER_CLIENT,
    perKeyPerMinute: env.LICENCE_RATE_PER_KEY,
    tokenLifeMs: env.LICENCE_TOKEN_DAYS * 86_400_000,
  })
  await registerInvoiceApis(app, {
    db: database.db,
    chains,
    invoices: services.invoices,
    env,
    publicUrl: rules.fulfil.publicUrl,
  })

  registerShopGauges(metrics, database.db)
  registerFollowerGauges(metrics, database.db, services.chains)
  registerProviderGauges(metrics, firstProviders)
  if (services.sightings) registerSightingGauges(metrics, services.sightings, firstProviders)
  registerChainGauges(metrics, database.db, services.chains, () => services.sightingWatchers)
  registerMetricsRoutes(app, metrics, {
    token: env.METRICS_TOKEN,
    rpcLabel: (name) => (services.rpc.has(name) ? `/rpc/${name}` : '/rpc/unknown'),
  })

  // A load balancer may ask many times a second: one database round trip per second at most.
  const health = cachedValue(() => database.ping(), 1000)
  app.get('/api/health', async (_request, reply) => {
    const ok = await health.get()
    reply.header('cache-control', 'no-store')
    if (!ok) return reply.status(503).send({ status: 'unavailable' })
    return { status: 'ok' }
  })

  await registerWeb(app, opts.webRoot ?? join(packageRoot(), 'dist', 'web'), services)
  return app
}

/** Serves the built SPA: files as they are, every other GET the index.html (client-side routing). */
async function registerWeb(app: FastifyInstance, root: string, services: AppServices): Promise<void> {
  const indexFile = join(root, 'index.html')
  const hasWeb = existsSync(indexFile)
  const indexHtml = hasWeb ? inlineStylesheets(readFileSync(indexFile, 'utf8'), root) : undefined
  const renderer = hasWeb ? await loadRenderer(root) : undefined
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
          // Images, icons and robots.txt change only with a new release; revalidated after a week.
          res.header('cache-control', 'public, max-age=604800')
        }
      },
    })
  }
  const pages = createPageCache()
  // The enabled chains are set when the shop starts: every page says the same of what it accepts.
  const storefrontNetworks = paymentNetworks(services.chains).networks
  const sendPage = async (request: FastifyRequest, reply: FastifyReply, html: string) => {
    const [products, content] = await Promise.all([
      productsForSale(services.catalog, services.database.db),
      services.content.get(),
    ])
    const path = request.url.split('?')[0] ?? '/'
    const admin = /^\/admin(\/|$)/.test(path)
    const locale = pageLocale(request, reply, admin)
    const acceptEncoding = request.headers['accept-encoding']
    const { body, encoding } = pages.get(
      [html, products, content],
      `${locale} ${htmlEncoding(acceptEncoding) ?? ''} ${path}`,
      () =>
        compressHtml(
          renderPage(html, renderer, { path, products, content, locale, networks: storefrontNetworks }),
          acceptEncoding,
        ),
    )
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding, accept-language, cookie')
    if (encoding) reply.header('content-encoding', encoding)
    return reply.send(body)
  }
  // The static files' wildcard would answer / itself (a directory); / is a page.
  if (indexHtml) app.get('/', (request, reply) => sendPage(request, reply, indexHtml))
  if (indexHtml)
    registerInvoicePage(app, { template: indexHtml, renderer, services, networks: storefrontNetworks })
  app.setNotFoundHandler(async (request, reply) => {
    const isApi = request.url.startsWith('/rpc/') || request.url.startsWith('/api/')
    if (!isApi && (request.method === 'GET' || request.method === 'HEAD') && indexHtml) {
      return sendPage(request, reply, indexHtml)
    }
    return reply.status(404).send({ success: false, error: `Not found: ${request.method} ${request.url}` })
  })
}
